#include "compiler/predicate_value.h"

#include "compiler/text_encoding.h"

namespace rift::js {

namespace {

char32_t lower_code_point(char32_t c) {
  if (c >= 0xC0 && c <= 0xDE && c != 0xD7) return c + 0x20;
  if (c >= 0x100 && c <= 0x17F) {
    if (c == 0x130) return 'i';  // İ lower-cases to i + combining dot; keep it simple
    if (c == 0x178) return 0xFF;
    if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) return (c % 2 == 1) ? c + 1 : c;
    if (c == 0x138 || c == 0x149 || c == 0x17F) return c;
    return (c % 2 == 0) ? c + 1 : c;
  }
  if (c >= 0x391 && c <= 0x3AB && c != 0x3A2) return c + 0x20;
  if (c == 0x386) return 0x3AC;
  if (c >= 0x388 && c <= 0x38A) return c + 0x25;
  if (c == 0x38C) return 0x3CC;
  if (c == 0x38E || c == 0x38F) return c + 0x3F;
  if (c >= 0x410 && c <= 0x42F) return c + 0x20;
  if (c >= 0x400 && c <= 0x40F) return c + 0x50;
  if (((c >= 0x460 && c <= 0x481) || (c >= 0x48A && c <= 0x4BF) || (c >= 0x4D0 && c <= 0x52F)) &&
      c % 2 == 0) {
    return c + 1;
  }
  return c;
}

}  // namespace

void lower_in_place(std::string& text) {
  bool ascii = true;
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') {
      c = static_cast<char>(c + 32);
    } else if (static_cast<unsigned char>(c) >= 0x80) {
      ascii = false;
    }
  }
  if (ascii) return;
  // Only two-byte sequences (U+0080..U+07FF) have mappings here; re-encode those.
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if ((byte & 0xE0) == 0xC0 && i + 1 < text.size() &&
        (static_cast<unsigned char>(text[i + 1]) & 0xC0) == 0x80) {
      const char32_t c = (static_cast<char32_t>(byte & 0x1F) << 6) |
                         (static_cast<unsigned char>(text[i + 1]) & 0x3F);
      append_utf8(out, lower_code_point(c));
      ++i;
    } else {
      out += text[i];
    }
  }
  text = std::move(out);
}

std::string lower(std::string_view text) {
  std::string out(text);
  lower_in_place(out);
  return out;
}

const ir::Json* property(const ir::Json& value, const std::string& key, ir::Json& scratch) {
  if (value.is_object()) {
    auto it = value.find(key);
    return it == value.end() ? nullptr : &*it;
  }
  if (value.is_array()) {
    if (key == "length") {
      scratch = value.size();
      return &scratch;
    }
    if (key.empty() || key.size() > 9 || (key.size() > 1 && key[0] == '0')) return nullptr;
    std::size_t index = 0;
    for (char c : key) {
      if (c < '0' || c > '9') return nullptr;
      index = index * 10 + static_cast<std::size_t>(c - '0');
    }
    return index < value.size() ? &value[index] : nullptr;
  }
  return nullptr;
}

}  // namespace rift::js
