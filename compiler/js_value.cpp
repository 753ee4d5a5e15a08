#include "compiler/js_value.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>

namespace rift::js {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::int64_t kMaxSafeInteger = (std::int64_t{1} << 53) - 1;

// The non-ASCII WhiteSpace and LineTerminator code points (ECMAScript StrWhiteSpaceChar), in
// UTF-8: U+00A0, U+1680, U+2000..U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF.
constexpr std::array<std::string_view, 19> kWideSpaces = {
    "\xC2\xA0",     "\xE1\x9A\x80", "\xE2\x80\x80", "\xE2\x80\x81", "\xE2\x80\x82",
    "\xE2\x80\x83", "\xE2\x80\x84", "\xE2\x80\x85", "\xE2\x80\x86", "\xE2\x80\x87",
    "\xE2\x80\x88", "\xE2\x80\x89", "\xE2\x80\x8A", "\xE2\x80\xA8", "\xE2\x80\xA9",
    "\xE2\x80\xAF", "\xE2\x81\x9F", "\xE3\x80\x80", "\xEF\xBB\xBF"};

// TAB, LF, VT, FF, CR and SP.
bool is_ascii_space(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

// The length of the whitespace character that starts (at_end: ends) `text`; 0 for none.
std::size_t space_at(std::string_view text, bool at_end) {
  if (text.empty()) return 0;
  if (is_ascii_space(at_end ? text.back() : text.front())) return 1;
  for (std::string_view space : kWideSpaces) {
    if (at_end ? text.ends_with(space) : text.starts_with(space)) return space.size();
  }
  return 0;
}

std::string_view trim_start(std::string_view text) {
  while (const std::size_t length = space_at(text, false)) text.remove_prefix(length);
  return text;
}

std::string_view trim(std::string_view text) {
  text = trim_start(text);
  while (const std::size_t length = space_at(text, true)) text.remove_suffix(length);
  return text;
}

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'z') return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  return 36;
}

// How many leading characters of `text` are digits in `radix`.
std::size_t digit_run(std::string_view text, int radix) {
  std::size_t length = 0;
  while (length < text.size() && digit_value(text[length]) < radix) ++length;
  return length;
}

bool is_decimal_digit(char c) {
  return c >= '0' && c <= '9';
}

// Digits in radix 2, 8 or 16 (at least one), rounded to the nearest double as V8 does: the bits
// go to from_chars as hexadecimal, which rounds correctly however many there are.
double power_of_two_integer(std::string_view digits, int radix) {
  std::string hex;
  if (radix == 16) {
    hex = digits;
  } else {
    const int width = radix == 8 ? 3 : 1;
    std::string bits;
    for (char c : digits) {
      for (int bit = width - 1; bit >= 0; --bit) bits += ((c - '0') >> bit) & 1 ? '1' : '0';
    }
    bits.insert(0, (4 - bits.size() % 4) % 4, '0');
    for (std::size_t i = 0; i < bits.size(); i += 4) {
      const int nibble = (bits[i] - '0') << 3 | (bits[i + 1] - '0') << 2 |
                         (bits[i + 2] - '0') << 1 | (bits[i + 3] - '0');
      hex += "0123456789abcdef"[nibble];
    }
  }
  double value = 0;
  const auto result =
      std::from_chars(hex.data(), hex.data() + hex.size(), value, std::chars_format::hex);
  return result.ec == std::errc::result_out_of_range ? kInfinity : value;
}

// StrUnsignedDecimalLiteral without Infinity: digits with an optional '.', at least one digit,
// then an optional exponent with at least one digit.
bool is_decimal_literal(std::string_view text) {
  std::size_t i = 0;
  std::size_t mantissa_digits = 0;
  while (i < text.size() && is_decimal_digit(text[i])) ++i, ++mantissa_digits;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && is_decimal_digit(text[i])) ++i, ++mantissa_digits;
  }
  if (mantissa_digits == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    const std::size_t exponent_start = i;
    while (i < text.size() && is_decimal_digit(text[i])) ++i;
    if (i == exponent_start) return false;
  }
  return i == text.size();
}

// A decimal literal (is_decimal_literal, or a plain digit run) rounded to the nearest double;
// beyond the double range it is Infinity, below it 0, as in JavaScript.
double decimal_value(std::string_view literal) {
  double value = 0;
  const auto result = std::from_chars(literal.data(), literal.data() + literal.size(), value);
  if (result.ec != std::errc::result_out_of_range) return value;
  // from_chars leaves an overflow or underflow unset: tell them apart by the decimal exponent.
  const std::size_t e = literal.find_first_of("eE");
  const std::string_view mantissa = literal.substr(0, e);
  long exponent = 0;
  if (e != std::string_view::npos) {
    std::string_view digits = literal.substr(e + 1);
    const bool negative = digits.front() == '-';
    if (digits.front() == '+' || digits.front() == '-') digits.remove_prefix(1);
    for (char c : digits) exponent = std::min(exponent * 10 + (c - '0'), 1'000'000'000L);
    if (negative) exponent = -exponent;
  }
  const std::size_t integer_end = std::min(mantissa.find('.'), mantissa.size());
  const std::size_t first = mantissa.find_first_not_of("0.");  // there is one: the value is not 0
  const long magnitude = first < integer_end ? static_cast<long>(integer_end - first)
                                             : -static_cast<long>(first - integer_end - 1);
  return magnitude + exponent > 0 ? kInfinity : 0.0;
}

void stringify_into(std::string& out, const ir::Json& value, int indent, int depth) {
  const auto newline = [&](int level) {
    if (indent < 0) return;
    out += '\n';
    out.append(static_cast<std::size_t>(indent) * static_cast<std::size_t>(level), ' ');
  };
  const auto quoted = [&](const std::string& text) {
    out += ir::Json(text).dump(-1, ' ', false, ir::Json::error_handler_t::replace);
  };
  switch (value.type()) {
    case ir::Json::value_t::object:
    case ir::Json::value_t::array: {
      const bool object = value.is_object();
      out += object ? '{' : '[';
      bool first = true;
      for (auto it = value.begin(); it != value.end(); ++it) {
        if (!first) out += ',';
        first = false;
        newline(depth + 1);
        if (object) {
          quoted(it.key());
          out += indent < 0 ? ":" : ": ";
        }
        stringify_into(out, it.value(), indent, depth + 1);
      }
      if (!value.empty()) newline(depth);  // "{}" and "[]" stay on one line
      out += object ? '}' : ']';
      return;
    }
    case ir::Json::value_t::string:
      quoted(value.get_ref<const std::string&>());
      return;
    case ir::Json::value_t::boolean:
      out += value.get<bool>() ? "true" : "false";
      return;
    case ir::Json::value_t::number_float:
      if (!std::isfinite(value.get<double>())) {
        out += "null";
        return;
      }
      out += to_string(value);
      return;
    case ir::Json::value_t::number_integer:
    case ir::Json::value_t::number_unsigned:
      out += to_string(value);
      return;
    default:
      out += "null";
      return;
  }
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
      return value.get<std::int64_t>() != 0;
    case ir::Json::value_t::number_unsigned:
      return value.get<std::uint64_t>() != 0;
    case ir::Json::value_t::number_float: {
      const double number = value.get<double>();
      return number != 0 && !std::isnan(number);
    }
    case ir::Json::value_t::string:
      return !value.get_ref<const std::string&>().empty();
    default:
      return true;  // objects and arrays, even empty ones
  }
}

bool truthy(const ir::Json* value) {
  return value != nullptr && truthy(*value);
}

std::string type_of(const ir::Json& value) {
  if (value.is_string()) return "string";
  if (value.is_number()) return "number";
  if (value.is_boolean()) return "boolean";
  return "object";
}

std::string type_of(const ir::Json* value) {
  return value == nullptr ? "undefined" : type_of(*value);
}

std::string number_to_string(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (value == 0) return "0";  // -0 too
  // The shortest round-trip digits in scientific form ("-1.2345e+21"), laid out again by
  // ECMAScript Number::toString: k digits, value = 0.digits * 10^n.
  char buffer[32];
  const auto written =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  std::string_view scientific(buffer, static_cast<std::size_t>(written.ptr - buffer));
  std::string out;
  if (scientific.front() == '-') {
    out += '-';
    scientific.remove_prefix(1);
  }
  const std::size_t e = scientific.find('e');
  std::string digits;
  for (char c : scientific.substr(0, e)) {
    if (c != '.') digits += c;
  }
  const std::string_view exponent_text = scientific.substr(e + 2);  // after "e+" or "e-"
  int exponent = 0;
  std::from_chars(exponent_text.data(), exponent_text.data() + exponent_text.size(), exponent);
  if (scientific[e + 1] == '-') exponent = -exponent;

  const int k = static_cast<int>(digits.size());
  const int n = exponent + 1;
  if (k <= n && n <= 21) {
    out += digits;
    out.append(static_cast<std::size_t>(n - k), '0');
  } else if (0 < n && n <= 21) {
    out.append(digits, 0, static_cast<std::size_t>(n));
    out += '.';
    out.append(digits, static_cast<std::size_t>(n));
  } else if (-6 < n && n <= 0) {
    out += "0.";
    out.append(static_cast<std::size_t>(-n), '0');
    out += digits;
  } else {
    out += digits.front();
    if (k > 1) {
      out += '.';
      out.append(digits, 1);
    }
    out += n - 1 >= 0 ? "e+" : "e-";
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
    case ir::Json::value_t::number_integer: {
      const auto number = value.get<std::int64_t>();
      if (number >= -kMaxSafeInteger && number <= kMaxSafeInteger) return std::to_string(number);
      return number_to_string(static_cast<double>(number));
    }
    case ir::Json::value_t::number_unsigned: {
      const auto number = value.get<std::uint64_t>();
      if (number <= static_cast<std::uint64_t>(kMaxSafeInteger)) return std::to_string(number);
      return number_to_string(static_cast<double>(number));
    }
    case ir::Json::value_t::number_float:
      return number_to_string(value.get<double>());
    case ir::Json::value_t::array: {
      // Array.prototype.join: null and undefined elements are empty.
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

std::string to_string(const ir::Json* value) {
  return value == nullptr ? "undefined" : to_string(*value);
}

std::optional<double> number_from_string(std::string_view text) {
  text = trim(text);
  if (text.empty()) return 0.0;
  if (text.size() > 2 && text[0] == '0') {
    const char prefix = static_cast<char>(text[1] | 0x20);  // lower case
    const int radix = prefix == 'x' ? 16 : prefix == 'o' ? 8 : prefix == 'b' ? 2 : 0;
    if (radix != 0) {
      const std::string_view digits = text.substr(2);
      if (digit_run(digits, radix) != digits.size()) return std::nullopt;
      return power_of_two_integer(digits, radix);
    }
  }
  std::string_view body = text;
  const bool negative = body.front() == '-';
  if (body.front() == '+' || body.front() == '-') body.remove_prefix(1);
  double magnitude = 0;
  if (body == "Infinity") {
    magnitude = kInfinity;
  } else if (is_decimal_literal(body)) {
    magnitude = decimal_value(body);
  } else {
    return std::nullopt;
  }
  return negative ? -magnitude : magnitude;
}

double to_number(const ir::Json* value) {
  if (value == nullptr) return kNaN;
  switch (value->type()) {
    case ir::Json::value_t::null:
      return 0;
    case ir::Json::value_t::boolean:
      return value->get<bool>() ? 1 : 0;
    case ir::Json::value_t::number_integer:
    case ir::Json::value_t::number_unsigned:
    case ir::Json::value_t::number_float:
      return value->get<double>();
    case ir::Json::value_t::string:
      return number_from_string(value->get_ref<const std::string&>()).value_or(kNaN);
    case ir::Json::value_t::array:
    case ir::Json::value_t::object:
      return number_from_string(to_string(*value)).value_or(kNaN);  // ToPrimitive is String()
    default:
      return kNaN;
  }
}

std::int32_t to_int32(double number) {
  if (!std::isfinite(number)) return 0;
  double wrapped = std::fmod(std::trunc(number), 4294967296.0);  // exact, sign of `number`
  if (wrapped < 0) wrapped += 4294967296.0;
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(wrapped));
}

std::optional<double> parse_int(std::string_view text) {
  text = trim_start(text);
  const bool negative = !text.empty() && text.front() == '-';
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) text.remove_prefix(1);
  int radix = 10;
  if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    radix = 16;
    text.remove_prefix(2);
  }
  const std::string_view digits = text.substr(0, digit_run(text, radix));
  if (digits.empty()) return std::nullopt;
  const double value = radix == 16 ? power_of_two_integer(digits, 16) : decimal_value(digits);
  return negative ? -value : value;
}

std::string stringify(const ir::Json& value, int indent) {
  std::string out;
  stringify_into(out, value, indent, 0);
  return out;
}

std::size_t string_length(std::string_view text) {
  std::size_t units = 0;
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte & 0xC0) == 0x80) continue;  // a continuation byte
    units += byte >= 0xF0 ? 2 : 1;
  }
  return units;
}

std::size_t key_count(const ir::Json& value) {
  if (value.is_object() || value.is_array()) return value.size();
  if (value.is_string()) return string_length(value.get_ref<const std::string&>());
  return 0;
}

}  // namespace rift::js
