#include "runtime/http/query_string.h"

#include "runtime/http/text_encoding.h"

namespace rift::http {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string decode_query_component(std::string_view text) {
  std::string bytes;
  bytes.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '+') {
      bytes += ' ';
    } else if (c == '%' && i + 2 < text.size() && hex_value(text[i + 1]) >= 0 &&
               hex_value(text[i + 2]) >= 0) {
      bytes += static_cast<char>(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2]));
      i += 2;
    } else {
      bytes += c;
    }
  }
  return to_valid_utf8(bytes);
}

rift::KeyValues parse_query_string(std::string_view text) {
  rift::KeyValues out;
  while (!text.empty()) {
    const size_t amp = text.find('&');
    const std::string_view piece = text.substr(0, amp);
    if (!piece.empty()) {
      const size_t equals = piece.find('=');
      if (equals == std::string_view::npos) {
        out.emplace_back(decode_query_component(piece), std::string());
      } else {
        out.emplace_back(decode_query_component(piece.substr(0, equals)),
                         decode_query_component(piece.substr(equals + 1)));
      }
    }
    if (amp == std::string_view::npos) break;
    text.remove_prefix(amp + 1);
  }
  return out;
}

}  // namespace rift::http
