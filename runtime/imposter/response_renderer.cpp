#include "runtime/imposter/response_renderer.h"

#include <cctype>
#include <charconv>
#include <ctime>

#include "compiler/ascii.h"
#include "compiler/base64.h"
#include "compiler/header_text.h"
#include "compiler/js_value.h"
#include "runtime/base/status_text.h"
#include "runtime/imposter/tcp_wire.h"

namespace rift {
namespace {

using ascii::iequals;

const ir::Json* field(const ir::Json& object, const char* name) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(name);
  return it == object.end() ? nullptr : &*it;
}

// Node's writeHead: `statusCode |= 0` (ToInt32 of ToNumber: " 201 ", "201.7" and [201] read
// 201), then anything outside 100-999 is refused. A falsy statusCode means 200.
std::optional<int> status_code(const ir::Json* value) {
  if (!js::truthy(value)) return 200;
  const std::int32_t status = js::to_int32(js::to_number(value));
  if (status < 100 || status > 999) return std::nullopt;
  return status;
}

std::string body_bytes(const ir::Json& body, bool binary) {
  if (body.is_null()) return {};
  if (binary && body.is_string()) return base64_decode_lenient(body.get_ref<const std::string&>());
  if (body.is_object() || body.is_array()) return js::stringify(body, 4);
  return js::to_string(body);
}

bool has_header(const ir::Json& headers, std::string_view name) {
  for (const auto& [key, value] : headers.items()) {
    if (iequals(key, name)) return true;
  }
  return false;
}

void append_header(std::string& out, std::string_view name, std::string_view value) {
  out.append(name).append(": ").append(value).append("\r\n");
}

void append_headers(std::string& out, const ir::Json& headers, bool& content_length_set,
                    size_t body_size) {
  for (const auto& [name, value] : headers.items()) {
    if (iequals(name, "content-length")) {
      // Mountebank overwrites any stated length with the real one.
      append_header(out, name, std::to_string(body_size));
      content_length_set = true;
    } else if (value.is_array()) {
      for (const auto& element : value) append_header(out, name, js::to_string(element));
    } else {
      append_header(out, name, js::to_string(value));
    }
  }
}

std::string header_value(const ir::Json& headers, std::string_view name) {
  for (const auto& [key, value] : headers.items()) {
    if (iequals(key, name)) return js::to_string(value);
  }
  return {};
}

bool contains_token(std::string_view value, std::string_view token) {
  return ascii::lower(value).find(token) != std::string::npos;
}

WireResponse frame(int status, const ir::Json& headers, const std::string& body,
                   const WireContext& context) {
  WireResponse out;
  out.status = status;
  const bool bodiless = context.head || status == 204 || status == 304 || status < 200;

  std::string& head = out.before_date;
  head.reserve(128 + body.size());
  head.append("HTTP/1.1 ").append(std::to_string(status)).append(" ");
  head.append(status_text(status)).append("\r\n");

  bool content_length_set = false;
  append_headers(head, headers, content_length_set, body.size());
  for (const auto& [name, value] : context.extra_headers) append_header(head, name, value);
  const bool implicit_close = !context.keep_alive_default;
  if (!has_header(headers, "connection") && implicit_close)
    append_header(head, "Connection", "close");
  out.add_date = !has_header(headers, "date");

  const std::string connection = header_value(headers, "connection");
  const bool chunked_requested =
      contains_token(header_value(headers, "transfer-encoding"), "chunked");
  bool close = (connection.empty() && implicit_close) || contains_token(connection, "close") ||
               context.client_close;

  std::string& tail = out.after_date;
  bool chunked = false;
  if (!content_length_set && !bodiless) {
    if (chunked_requested) {
      chunked = true;  // the response's own Transfer-Encoding header is already written
    } else if (context.http10) {
      close = true;  // HTTP/1.0 without a length: the body ends when the connection does
    } else {
      append_header(tail, "Transfer-Encoding", "chunked");
      chunked = true;
    }
  }
  // Last, after every header Node would write, so a Mountebank client reads the head it knows.
  if (context.imposter_marker) append_header(tail, "x-rift-imposter", "true");
  tail.append("\r\n");
  if (!bodiless) {
    if (chunked) {
      if (!body.empty()) {
        char size[20];
        auto [end, error] = std::to_chars(size, size + sizeof(size), body.size(), 16);
        (void)error;
        tail.append(size, end).append("\r\n").append(body).append("\r\n");
      }
      tail.append("0\r\n\r\n");
    } else {
      tail.append(body);
    }
  }
  out.close = close;
  return out;
}

}  // namespace

std::string WireResponse::serialize(std::string_view date_header_value) const {
  std::string out;
  out.reserve(before_date.size() + after_date.size() + 40);
  out.append(before_date);
  if (add_date) append_header(out, "Date", date_header_value);
  out.append(after_date);
  return out;
}

std::variant<WireResponse, MbError> render_response(const ir::Json& is,
                                                    const std::optional<ir::Json>& defaults,
                                                    const WireContext& context) {
  if (context.wire != WireContext::Wire::kHttp) {
    return render_tcp(is, defaults, context.wire == WireContext::Wire::kTcpBinary);
  }
  static const ir::Json kEmpty = ir::Json::object();
  const ir::Json& fallback = defaults ? *defaults : kEmpty;

  // `stubResponse.statusCode || defaultResponse.statusCode || 200`
  const ir::Json* status_value = field(is, "statusCode");
  if (!js::truthy(status_value)) status_value = field(fallback, "statusCode");
  const std::optional<int> status = status_code(status_value);
  if (!status) {
    return MbError{"bad data",
                   "Invalid status code: " + (status_value ? js::to_string(*status_value) : ""),
                   std::nullopt};
  }

  const ir::Json* headers = field(is, "headers");
  if (headers == nullptr || headers->is_null()) headers = field(fallback, "headers");
  if (headers == nullptr || !headers->is_object()) headers = &kEmpty;
  // A stub's own headers were checked when it was created; these may come from a script, a
  // decorator or a proxied origin.
  if (auto problem = header_text::problem(*headers))
    return MbError{"bad data", *problem, std::nullopt};

  // `stubResponse.body || defaultResponse.body || ''`
  const ir::Json* body = field(is, "body");
  if (!js::truthy(body)) body = field(fallback, "body");
  if (!js::truthy(body)) body = nullptr;

  const ir::Json* mode = field(is, "_mode");
  if (mode == nullptr || mode->is_null()) mode = field(fallback, "_mode");
  const bool binary = mode != nullptr && mode->is_string() && mode->get<std::string>() == "binary";

  const std::string bytes = body ? body_bytes(*body, binary) : std::string();
  return frame(*status, *headers, bytes, context);
}

WireResponse render_error(const MbError& error, const WireContext& context) {
  if (context.wire != WireContext::Wire::kHttp) return render_tcp_error(error);
  ir::Json body = ir::Json::object();
  body["errors"] = ir::Json::array({error.to_json()});
  // Mountebank writes the head before the body (writeHead), so Node frames an error as it does
  // any unknown-length reply: chunked, and keep-alive unless the client asked to close.
  ir::Json headers = ir::Json::object();
  headers["content-type"] = "application/json";
  headers["Connection"] = context.client_close || context.http10 ? "close" : "keep-alive";
  WireContext own = context;
  own.keep_alive_default = true;
  return frame(500, headers, js::stringify(body), own);
}

namespace {

// "Date: <value>\r\n", reformatted at most once a second per thread: the hot path lends it to
// the connection (http::Reply::lent) rather than formatting or copying a date per request.
std::string_view date_line_now() {
  static constexpr std::string_view kPrefix = "Date: ";
  thread_local std::time_t cached_second = 0;
  thread_local char cached[48] = {};
  thread_local size_t cached_size = 0;
  const std::time_t now = std::time(nullptr);
  if (now != cached_second) {
    std::tm utc{};
    gmtime_r(&now, &utc);
    kPrefix.copy(cached, kPrefix.size());
    const size_t value = std::strftime(cached + kPrefix.size(), sizeof(cached) - kPrefix.size() - 2,
                                       "%a, %d %b %Y %H:%M:%S GMT", &utc);
    cached_size = kPrefix.size() + value;
    cached[cached_size++] = '\r';
    cached[cached_size++] = '\n';
    cached_second = now;
  }
  return {cached, cached_size};
}

}  // namespace

std::string_view http_date_now() {
  const std::string_view line = date_line_now();
  return line.substr(6, line.size() - 8);
}

std::string_view http_date_line_now() {
  return date_line_now();
}

void WireResponse::lend_to(http::Reply& reply) const {
  reply.lent = {before_date, add_date ? date_line_now() : std::string_view(), after_date};
  reply.close = close;
}

KeyValues no_match_markers(bool has_default_response) {
  if (has_default_response) return {{"x-rift-default-response", "true"}};
  return {{"x-rift-no-match", "true"}};
}

std::string response_head(int status, const KeyValues& headers, bool close) {
  std::string out =
      "HTTP/1.1 " + std::to_string(status) + " " + std::string(status_text(status)) + "\r\n";
  for (const auto& [name, value] : headers) out += name + ": " + value + "\r\n";
  out.append(http_date_line_now());
  out += close ? "Connection: close\r\n\r\n" : "Connection: keep-alive\r\n\r\n";
  return out;
}

}  // namespace rift
