// A message's MIME structure, read with GMime: every part in document order with its raw header
// lines and, for a leaf, its still-encoded body. What mailsplit hands mailparser, so that
// mail_request.cpp can apply mailparser's rules to it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rift::smtp {

struct MimeHeader {
  std::string key;   // the name, lower-cased
  std::string line;  // "Name: value" as sent, folds and all (bytes)
};

struct MimeNode {
  enum class Kind { leaf, multipart, message };
  Kind kind = Kind::leaf;
  // In the order they appear; a message's own headers and its top part's Content-* headers
  // together, as one block.
  std::vector<MimeHeader> headers;
  // A leaf's body, transfer encoding not undone; a message/rfc822 part's embedded message.
  std::string body;
  int parent = -1;
  // A multipart's parts; a message/rfc822 part's one child, the embedded message's top part.
  std::vector<int> children;
};

// Nodes in document order (a parent before its children); node 0 is the message itself.
std::vector<MimeNode> read_mime_tree(std::string_view message);

}  // namespace rift::smtp
