#include "runtime/http/request_builder.h"

#include <strings.h>

#include <charconv>

#include "compiler/text_encoding.h"
#include "runtime/http/decompress.h"
#include "runtime/http/query_string.h"
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

// The refilled Request lives as long as its connection: after a large body, keep at most this much
// of its buffer for the next request rather than holding up to max_body_bytes per connection.
constexpr size_t kKeptBodyBytes = 64 * 1024;

void release_if_oversized(std::string& buffer, size_t next_size) {
  if (buffer.capacity() > kKeptBodyBytes && next_size <= kKeptBodyBytes) {
    std::string().swap(buffer);
  }
}

// Empty when the body cannot be decoded (Mountebank then sees no body at all).
void assign_decoded_body(const Message& message, std::optional<std::string>& body) {
  const std::string encoding = joined_header(message.headers, "content-encoding");
  std::optional<std::string> bytes;
  if (encoding == "gzip") {
    bytes = gunzip(message.body);
  } else if (encoding == "br") {
    bytes = brotli_decode(message.body);
  } else {
    if (!body) body.emplace();
    release_if_oversized(*body, message.body.size());
    assign_valid_utf8(*body, message.body);
    return;
  }
  if (!bytes) {
    body.reset();
    return;
  }
  if (!body) body.emplace();
  release_if_oversized(*body, bytes->size());
  assign_valid_utf8(*body, *bytes);
}

}  // namespace

rift::Request build_request(const Message& message) {
  rift::Request request;
  build_request_into(message, request);
  return request;
}

void build_request_into(const Message& message, rift::Request& request) {
  request.method.assign(message.method);
  const std::string_view query = split_target_into(message.target, request.path);
  parse_query_string_into(query, request.query);
  size_t count = 0;
  for (const auto& [name, value] : message.headers) {
    auto& [to_name, to_value] = rift::reuse_slot(request.headers, count++);
    assign_latin1_as_utf8(to_name, name);
    assign_latin1_as_utf8(to_value, value);
  }
  request.headers.resize(count);
  assign_decoded_body(message, request.body);
  const std::string_view content_type = first_header(message.headers, "content-type");
  if (request.body && !request.body->empty() &&
      content_type.substr(0, content_type.find(';')) == "application/x-www-form-urlencoded") {
    if (!request.form) request.form.emplace();
    parse_query_string_into(*request.body, *request.form);
  } else {
    request.form.reset();
  }
  request.ip.assign(message.remote_address);
  request.request_from.assign(message.remote_address);
  request.request_from += ':';
  char port[8];
  const auto [end, error] = std::to_chars(port, port + sizeof(port), message.remote_port);
  (void)error;
  request.request_from.append(port, end);
}

}  // namespace rift::http
