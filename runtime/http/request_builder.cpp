#include "runtime/http/request_builder.h"

#include <strings.h>

#include "runtime/http/decompress.h"
#include "runtime/http/query_string.h"
#include "runtime/http/text_encoding.h"
#include "runtime/http/url_path.h"

namespace rift::http {
namespace {

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
}

// Node joins repeated headers with ", " (so "gzip" twice is not "gzip"); absent gives "".
std::string joined_header(const KeyValues& headers, std::string_view name) {
  std::string out;
  bool found = false;
  for (const auto& [key, value] : headers) {
    if (!equals_ignoring_case(key, name)) continue;
    if (found) out += ", ";
    out += value;
    found = true;
  }
  return out;
}

// Node keeps only the first Content-Type.
std::string_view first_header(const KeyValues& headers, std::string_view name) {
  for (const auto& [key, value] : headers) {
    if (equals_ignoring_case(key, name)) return value;
  }
  return {};
}

std::optional<std::string> decoded_body(const Message& message) {
  const std::string encoding = joined_header(message.headers, "content-encoding");
  std::optional<std::string> bytes;
  if (encoding == "gzip") {
    bytes = gunzip(message.body);
  } else if (encoding == "br") {
    bytes = brotli_decode(message.body);
  } else {
    return to_valid_utf8(message.body);
  }
  if (!bytes) return std::nullopt;
  return to_valid_utf8(*bytes);
}

}  // namespace

rift::Request build_request(const Message& message) {
  rift::Request request;
  request.method = message.method;
  TargetParts target = split_target(message.target);
  request.path = std::move(target.path);
  request.query = parse_query_string(target.query);
  request.headers.reserve(message.headers.size());
  for (const auto& [name, value] : message.headers) {
    request.headers.emplace_back(latin1_to_utf8(name), latin1_to_utf8(value));
  }
  request.body = decoded_body(message);
  if (request.body && !request.body->empty()) {
    const std::string_view content_type = first_header(message.headers, "content-type");
    if (content_type.substr(0, content_type.find(';')) == "application/x-www-form-urlencoded") {
      request.form = parse_query_string(*request.body);
    }
  }
  request.ip = message.remote_address;
  request.request_from = message.remote_address + ":" + std::to_string(message.remote_port);
  return request;
}

}  // namespace rift::http
