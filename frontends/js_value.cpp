#include "frontends/js_value.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace rift::frontends::js {
namespace {

bool is_js_space(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_js_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_js_space(text.back())) text.remove_suffix(1);
  return text;
}

std::optional<double> digits_in_radix(std::string_view digits, int radix) {
  if (digits.empty()) return std::nullopt;
  double value = 0;
  for (char c : digits) {
    int digit = -1;
    if (c >= '0' && c <= '9') digit = c - '0';
    if (c >= 'a' && c <= 'z') digit = c - 'a' + 10;
    if (c >= 'A' && c <= 'Z') digit = c - 'A' + 10;
    if (digit < 0 || digit >= radix) return std::nullopt;
    value = value * radix + digit;
  }
  return value;
}

// JavaScript's Number-to-String for the values a config can hold: integers print without a
// fraction, other doubles with the shortest round-tripping form.
std::string number_text(const ir::Json& value) {
  if (value.is_number_integer()) return value.dump();
  const double d = value.get<double>();
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
  if (d == std::floor(d) && std::fabs(d) < 1e15) {
    return std::to_string(static_cast<long long>(d));
  }
  return value.dump();
}

}  // namespace

bool truthy(const ir::Json& value) {
  switch (value.type()) {
    case ir::Json::value_t::null:
    case ir::Json::value_t::discarded:
      return false;
    case ir::Json::value_t::boolean:
      return value.get<bool>();
    case ir::Json::value_t::number_integer:
    case ir::Json::value_t::number_unsigned:
      return value.get<double>() != 0;
    case ir::Json::value_t::number_float: {
      const double d = value.get<double>();
      return d != 0 && !std::isnan(d);
    }
    case ir::Json::value_t::string:
      return !value.get_ref<const std::string&>().empty();
    default:
      return true;
  }
}

std::string type_of(const ir::Json& value) {
  if (value.is_string()) return "string";
  if (value.is_number()) return "number";
  if (value.is_boolean()) return "boolean";
  return "object";
}

std::string to_string(const ir::Json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null()) return "null";
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (value.is_number()) return number_text(value);
  if (value.is_array()) {
    std::string out;
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (i > 0) out += ',';
      // Array.prototype.join renders null elements as empty strings.
      if (!value[i].is_null()) out += to_string(value[i]);
    }
    return out;
  }
  return "[object Object]";
}

std::optional<double> number_from_string(std::string_view text) {
  text = trim(text);
  if (text.empty()) return 0.0;
  if (text.size() > 2 && text[0] == '0') {
    const char prefix = static_cast<char>(std::tolower(static_cast<unsigned char>(text[1])));
    if (prefix == 'x') return digits_in_radix(text.substr(2), 16);
    if (prefix == 'o') return digits_in_radix(text.substr(2), 8);
    if (prefix == 'b') return digits_in_radix(text.substr(2), 2);
  }
  std::string_view body = text;
  bool negative = false;
  if (body.front() == '+' || body.front() == '-') {
    negative = body.front() == '-';
    body.remove_prefix(1);
  }
  if (body == "Infinity") {
    return negative ? -std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::infinity();
  }
  // Only a plain decimal literal is a number: digits, one optional '.', an optional exponent.
  std::size_t i = 0;
  std::size_t mantissa_digits = 0;
  while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i])))
    ++i, ++mantissa_digits;
  if (i < body.size() && body[i] == '.') {
    ++i;
    while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i])))
      ++i, ++mantissa_digits;
  }
  if (mantissa_digits == 0) return std::nullopt;
  if (i < body.size() && (body[i] == 'e' || body[i] == 'E')) {
    ++i;
    if (i < body.size() && (body[i] == '+' || body[i] == '-')) ++i;
    std::size_t exponent_digits = 0;
    while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i])))
      ++i, ++exponent_digits;
    if (exponent_digits == 0) return std::nullopt;
  }
  if (i != body.size()) return std::nullopt;
  return std::strtod(std::string(text).c_str(), nullptr);
}

std::optional<double> parse_int(std::string_view text) {
  text = trim(text);
  bool negative = false;
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  int radix = 10;
  if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    radix = 16;
    text.remove_prefix(2);
  }
  std::size_t length = 0;
  while (length < text.size()) {
    const char c = text[length];
    const bool digit = radix == 10 ? std::isdigit(static_cast<unsigned char>(c)) != 0
                                   : std::isxdigit(static_cast<unsigned char>(c)) != 0;
    if (!digit) break;
    ++length;
  }
  const auto value = digits_in_radix(text.substr(0, length), radix);
  if (!value) return std::nullopt;
  return negative ? -*value : *value;
}

std::size_t key_count(const ir::Json& value) {
  if (value.is_object() || value.is_array()) return value.size();
  if (value.is_string()) return value.get_ref<const std::string&>().size();
  return 0;
}

}  // namespace rift::frontends::js
