// mailparser's reading of a message's parts: which are text, which are attachments, and the text
// and HTML it assembles (simpleParser's `text`, `html` and `attachments`), from the MIME tree
// GMime reads (mime_tree.h) with mailsplit's rules for each part's type, disposition, file name
// and transfer encoding.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/smtp/mime_tree.h"

namespace rift::smtp {

struct Attachment {
  std::string content;  // transfer encoding undone
  std::optional<std::string> content_type;
  std::optional<std::string> part_id;
  std::optional<std::string> content_disposition;  // as written, lower-cased
  std::optional<std::string> filename;
  std::optional<std::string> content_id;
  std::string cid;       // content_id without its angle brackets, when there is one
  bool related = false;  // inside a multipart/related
};

struct ParsedMail {
  std::vector<MimeHeader> top_headers;
  std::string text;  // simpleParser's text, "" for none (not trimmed)
  std::string html;  // its html after cid: links to images became data: URLs, "" for none
  std::vector<Attachment> attachments;
};

ParsedMail parse_mail(std::string_view message);

}  // namespace rift::smtp
