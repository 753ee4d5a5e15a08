#include "codegen/cpp_text.h"

#include <cstdio>

namespace rift::codegen {

std::string cpp_string(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20 || byte >= 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\%03o", byte);  // octal stops at 3 digits
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string comment_text(std::string_view text, size_t limit) {
  std::string out;
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    out += (byte < 0x20 || byte == 0x7f) ? ' ' : c;
    if (out.size() >= 2 && out.compare(out.size() - 2, 2, "/*") == 0) out.back() = '_';
    if (out.size() >= 2 && out.compare(out.size() - 2, 2, "*/") == 0) out.back() = '_';
  }
  if (out.size() > limit) out = out.substr(0, limit) + "...";
  if (!out.empty() && out.back() == '\\') out += '.';  // a trailing backslash would continue it
  return out;
}

std::string identifier(std::string_view text) {
  std::string out;
  for (char c : text) {
    const bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    out += word ? c : '_';
  }
  return out.empty() ? "_" : out;
}

std::string re2c_folded_literal(std::string_view text) {
  if (text.empty()) return "";
  std::string out = "'";
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x7f) return "";
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

}  // namespace rift::codegen
