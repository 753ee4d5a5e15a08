#include "runtime/http/reply_parts.h"

#include <charconv>

#include "compiler/ascii.h"

namespace rift::http {

namespace {

// Connection-specific headers mean nothing on an h2 stream, and a peer must treat a stream that
// carries one as malformed (RFC 9113 §8.2.2).
bool connection_specific(std::string_view name) {
  return name == "connection" || name == "keep-alive" || name == "proxy-connection" ||
         name == "transfer-encoding" || name == "upgrade";
}

std::optional<std::string> dechunk(std::string_view data) {
  std::string body;
  while (true) {
    const size_t line_end = data.find("\r\n");
    if (line_end == std::string_view::npos) return std::nullopt;
    std::string_view size_text = data.substr(0, line_end);
    size_text = size_text.substr(0, size_text.find(';'));
    size_t size = 0;
    const auto [end, error] =
        std::from_chars(size_text.data(), size_text.data() + size_text.size(), size, 16);
    if (error != std::errc() || size_text.empty()) return std::nullopt;
    data.remove_prefix(line_end + 2);
    if (size == 0) return body;
    if (data.size() < size + 2) return std::nullopt;
    body.append(data.substr(0, size));
    data.remove_prefix(size + 2);
  }
}

}  // namespace

std::optional<ReplyParts> split_reply(std::string_view wire) {
  const size_t head_end = wire.find("\r\n\r\n");
  if (head_end == std::string_view::npos) return std::nullopt;
  std::string_view head = wire.substr(0, head_end);
  std::string_view rest = wire.substr(head_end + 4);
  const size_t status_line_end = head.find("\r\n");
  std::string_view status_line = head.substr(0, status_line_end);
  // "HTTP/1.1 200 OK"
  const size_t space = status_line.find(' ');
  if (space == std::string_view::npos || status_line.size() < space + 4) return std::nullopt;
  ReplyParts parts;
  const auto [end, error] =
      std::from_chars(status_line.data() + space + 1, status_line.data() + space + 4, parts.status);
  if (error != std::errc() || end != status_line.data() + space + 4) return std::nullopt;
  bool chunked = false;
  head.remove_prefix(status_line_end == std::string_view::npos ? head.size() : status_line_end + 2);
  while (!head.empty()) {
    const size_t line_end = head.find("\r\n");
    const std::string_view line = head.substr(0, line_end);
    head.remove_prefix(line_end == std::string_view::npos ? head.size() : line_end + 2);
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string name = ascii::lower(line.substr(0, colon));
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
      value.remove_prefix(1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
    if (name == "transfer-encoding" && ascii::lower(value).find("chunked") != std::string::npos) {
      chunked = true;
    }
    if (connection_specific(name)) continue;
    parts.headers.emplace_back(std::move(name), std::string(value));
  }
  if (chunked) {
    auto body = dechunk(rest);
    if (!body) return std::nullopt;
    parts.body = std::move(*body);
  } else {
    parts.body.assign(rest);
  }
  return parts;
}

}  // namespace rift::http
