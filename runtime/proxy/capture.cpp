#include "runtime/proxy/capture.h"

#include <array>
#include <string_view>

#include "compiler/ascii.h"
#include "compiler/base64.h"
#include "compiler/nesting.h"
#include "compiler/request.h"
#include "compiler/text_encoding.h"

namespace rift::proxy {
namespace {

constexpr std::array<std::string_view, 4> kBinaryEncodings = {"gzip", "br", "compress", "deflate"};
constexpr std::array<std::string_view, 19> kBinaryTypes = {"audio/",
                                                           "application/epub+zip",
                                                           "application/gzip",
                                                           "application/java-archive",
                                                           "application/msword",
                                                           "application/octet-stream",
                                                           "application/pdf",
                                                           "application/rtf",
                                                           "application/vnd.ms-excel",
                                                           "application/vnd.ms-fontobject",
                                                           "application/vnd.ms-powerpoint",
                                                           "application/vnd.visio",
                                                           "application/x-shockwave-flash",
                                                           "application/x-tar",
                                                           "application/zip",
                                                           "font/",
                                                           "image/",
                                                           "model/",
                                                           "video/"};

// Node lower-cases response header names and joins repeats with ", " (set-cookie aside,
// which is an array and so never matches a substring test).
std::string joined(const KeyValues& headers, std::string_view name) {
  std::string out;
  int count = 0;
  for (const auto& [key, value] : headers) {
    if (!ascii::iequals(key, name)) continue;
    if (count++ > 0) out += ", ";
    out += value;
  }
  return out;
}

bool is_binary(const KeyValues& headers) {
  const std::string encoding = joined(headers, "content-encoding");
  for (auto binary : kBinaryEncodings) {
    if (encoding.find(binary) != std::string::npos) return true;
  }
  const std::string type = joined(headers, "content-type");
  for (auto binary : kBinaryTypes) {
    if (type.find(binary) != std::string::npos) return true;
  }
  return false;
}

// headersMap.ofRaw(): exact names; a repeat with the same spelling makes an array, except
// that a first value of "" is replaced rather than kept (JavaScript truthiness).
ir::Json raw_headers(const KeyValues& headers) {
  ir::Json out = ir::Json::object();
  for (const auto& [name, raw] : headers) {
    const std::string value = latin1_to_utf8(raw);
    auto it = out.find(name);
    if (it == out.end() || (it->is_string() && it->get_ref<const std::string&>().empty())) {
      out[name] = value;
    } else if (it->is_array()) {
      it->push_back(value);
    } else {
      *it = ir::Json::array({*it, value});
    }
  }
  return out;
}

}  // namespace

ir::Json capture(const OriginResponse& response, long proxy_response_ms) {
  const bool binary = is_binary(response.headers);
  const std::string text = binary ? base64_encode(response.body) : to_valid_utf8(response.body);
  // JSON.parse keeps what the text says: 123 is recorded as the number 123. A body nested too
  // deeply to walk safely is kept as text.
  ir::Json parsed = nesting::json_exceeds(text)
                        ? ir::Json(ir::Json::value_t::discarded)
                        : ir::Json::parse(text, nullptr, /*allow_exceptions=*/false);

  ir::Json out = ir::Json::object();
  out["statusCode"] = response.status;
  out["headers"] = raw_headers(response.headers);
  out["body"] = parsed.is_discarded() ? ir::Json(text) : std::move(parsed);
  out["_mode"] = binary ? "binary" : "text";
  out["_proxyResponseTime"] = proxy_response_ms;
  return out;
}

}  // namespace rift::proxy
