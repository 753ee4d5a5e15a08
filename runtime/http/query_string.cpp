#include "runtime/http/query_string.h"

#include "compiler/ascii.h"
#include "compiler/text_encoding.h"

namespace rift::http {

using ascii::hex_value;

std::string decode_query_component(std::string_view text) {
  std::string out;
  assign_decoded_query_component(out, text);
  return out;
}

void assign_decoded_query_component(std::string& out, std::string_view text) {
  out.clear();
  bool ascii = true;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '+') {
      out += ' ';
    } else if (c == '%' && i + 2 < text.size() && hex_value(text[i + 1]) >= 0 &&
               hex_value(text[i + 2]) >= 0) {
      const int byte = hex_value(text[i + 1]) * 16 + hex_value(text[i + 2]);
      ascii = ascii && byte < 0x80;
      out += static_cast<char>(byte);
      i += 2;
    } else {
      ascii = ascii && static_cast<unsigned char>(c) < 0x80;
      out += c;
    }
  }
  if (!ascii) out = to_valid_utf8(out);
}

rift::KeyValues parse_query_string(std::string_view text) {
  rift::KeyValues out;
  parse_query_string_into(text, out);
  return out;
}

void parse_query_string_into(std::string_view text, rift::KeyValues& out) {
  size_t count = 0;
  while (!text.empty()) {
    const size_t amp = text.find('&');
    const std::string_view piece = text.substr(0, amp);
    if (!piece.empty()) {
      const size_t equals = piece.find('=');
      auto& [key, value] = rift::reuse_slot(out, count++);
      if (equals == std::string_view::npos) {
        assign_decoded_query_component(key, piece);
        value.clear();
      } else {
        assign_decoded_query_component(key, piece.substr(0, equals));
        assign_decoded_query_component(value, piece.substr(equals + 1));
      }
    }
    if (amp == std::string_view::npos) break;
    text.remove_prefix(amp + 1);
  }
  out.resize(count);
}

}  // namespace rift::http
