// A serialized HTTP/1.1 reply taken apart again, for protocols that frame it their own way
// (HTTP/2, runtime/http/h2_connection.h): imposters render one wire form, and an h2 stream sends
// its status, its headers less the ones HTTP/2 forbids (RFC 9113 §8.2.2), and its body de-chunked.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rift::http {

struct ReplyParts {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;  // names lower case
  std::string body;
};

// Null when `wire` is not a whole reply (a renderer bug, never a client's doing).
std::optional<ReplyParts> split_reply(std::string_view wire);

}  // namespace rift::http
