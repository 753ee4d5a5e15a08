#include "compiler/predicate_value.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace rift::js {

std::string number_to_string(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (value == 0) return "0";
  // Shortest round-trip digits in scientific form, then laid out per ECMAScript Number::toString.
  char buffer[64];
  auto [end, ec] =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  (void)ec;
  std::string_view sci(buffer, static_cast<std::size_t>(end - buffer));
  std::string out;
  if (sci.front() == '-') {
    out += '-';
    sci.remove_prefix(1);
  }
  const std::size_t e_pos = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, e_pos)) {
    if (c != '.') digits += c;
  }
  const int exponent = std::stoi(std::string(sci.substr(e_pos + 1)));
  const int k = static_cast<int>(digits.size());
  const int n = exponent + 1;  // value = 0.digits * 10^n
  if (k <= n && n <= 21) {
    out += digits;
    out.append(static_cast<std::size_t>(n - k), '0');
  } else if (0 < n && n <= 21) {
    out += digits.substr(0, static_cast<std::size_t>(n));
    out += '.';
    out += digits.substr(static_cast<std::size_t>(n));
  } else if (-6 < n && n <= 0) {
    out += "0.";
    out.append(static_cast<std::size_t>(-n), '0');
    out += digits;
  } else {
    out += digits.substr(0, 1);
    if (k > 1) {
      out += '.';
      out += digits.substr(1);
    }
    out += 'e';
    out += (n - 1 >= 0) ? '+' : '-';
    out += std::to_string(std::abs(n - 1));
  }
  return out;
}

std::string to_string(const ir::Json& value) {
  switch (value.type()) {
    case ir::Json::value_t::string:
      return value.get_ref<const std::string&>();
    case ir::Json::value_t::null:
      return "null";
    case ir::Json::value_t::boolean:
      return value.get<bool>() ? "true" : "false";
    case ir::Json::value_t::number_integer:
    case ir::Json::value_t::number_unsigned:
    case ir::Json::value_t::number_float:
      return number_to_string(value.get<double>());
    case ir::Json::value_t::array: {
      std::string out;
      bool first = true;
      for (const auto& element : value) {
        if (!first) out += ',';
        first = false;
        if (!element.is_null()) out += to_string(element);
      }
      return out;
    }
    case ir::Json::value_t::object:
      return "[object Object]";
    default:
      return "";
  }
}

bool truthy(const ir::Json* value) {
  if (value == nullptr) return false;
  switch (value->type()) {
    case ir::Json::value_t::null:
      return false;
    case ir::Json::value_t::boolean:
      return value->get<bool>();
    case ir::Json::value_t::string:
      return !value->get_ref<const std::string&>().empty();
    case ir::Json::value_t::number_integer:
    case ir::Json::value_t::number_unsigned:
    case ir::Json::value_t::number_float: {
      const double number = value->get<double>();
      return number != 0 && !std::isnan(number);
    }
    default:
      return true;
  }
}

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

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
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
