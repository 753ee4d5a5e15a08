#include "runtime/smtp/punycode.h"

#include <cstdint>
#include <vector>

#include "compiler/text_encoding.h"

namespace rift::smtp {
namespace {

// RFC 3492's parameters for IDNA.
constexpr uint32_t kBase = 36;
constexpr uint32_t kTMin = 1;
constexpr uint32_t kTMax = 26;
constexpr uint32_t kSkew = 38;
constexpr uint32_t kDamp = 700;
constexpr uint32_t kInitialBias = 72;
constexpr uint32_t kInitialN = 128;
constexpr uint32_t kMaxInt = 0x7FFFFFFF;  // punycode.js's limit

uint32_t adapt(uint32_t delta, uint32_t points, bool first) {
  delta = first ? delta / kDamp : delta / 2;
  delta += delta / points;
  uint32_t k = 0;
  for (; delta > ((kBase - kTMin) * kTMax) / 2; k += kBase) delta /= kBase - kTMin;
  return k + (kBase - kTMin + 1) * delta / (delta + kSkew);
}

// A digit's value, or kBase for a character that is none (punycode.js's basicToDigit).
uint32_t digit_value(unsigned char c) {
  if (c >= '0' && c <= '9') return c - '0' + 26;
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a';
  return kBase;
}

// One label without its "xn--" prefix, lower-cased as punycode.js does before decoding.
std::optional<std::string> decode_label(std::string_view input) {
  std::vector<uint32_t> output;
  size_t basic = input.rfind('-');
  if (basic == std::string_view::npos) basic = 0;
  for (size_t j = 0; j < basic; ++j) {
    const auto c = static_cast<unsigned char>(input[j]);
    if (c >= 0x80) return std::nullopt;  // not a basic code point
    output.push_back(c);
  }
  uint32_t n = kInitialN;
  uint32_t bias = kInitialBias;
  uint32_t i = 0;
  for (size_t index = basic > 0 ? basic + 1 : 0; index < input.size();) {
    const uint32_t old_i = i;
    uint32_t w = 1;
    for (uint32_t k = kBase;; k += kBase) {
      if (index >= input.size()) return std::nullopt;  // invalid input
      const uint32_t digit = digit_value(static_cast<unsigned char>(input[index++]));
      if (digit >= kBase || digit > (kMaxInt - i) / w) return std::nullopt;
      i += digit * w;
      const uint32_t t = k <= bias ? kTMin : (k >= bias + kTMax ? kTMax : k - bias);
      if (digit < t) break;
      if (w > kMaxInt / (kBase - t)) return std::nullopt;  // overflow
      w *= kBase - t;
    }
    const auto points = static_cast<uint32_t>(output.size() + 1);
    bias = adapt(i - old_i, points, old_i == 0);
    if (i / points > kMaxInt - n) return std::nullopt;
    n += i / points;
    i %= points;
    output.insert(output.begin() + i, n);
    ++i;
  }
  std::string text;
  for (uint32_t code : output) {
    // String.fromCodePoint throws past U+10FFFF; a lone surrogate could not be written as UTF-8.
    if (code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return std::nullopt;
    append_utf8(text, code);
  }
  return text;
}

}  // namespace

std::optional<std::string> punycode_to_unicode(std::string_view domain) {
  std::string out;
  if (const size_t at = domain.find('@'); at != std::string_view::npos) {
    out.append(domain.substr(0, at + 1));
    domain.remove_prefix(at + 1);
  }
  // punycode.js splits on the ideographic and fullwidth full stops too, and joins with '.'.
  std::vector<std::string_view> labels;
  size_t start = 0;
  for (size_t i = 0; i <= domain.size();) {
    size_t separator = 0;
    if (i == domain.size() || domain[i] == '.') {
      separator = 1;
    } else if (domain.compare(i, 3, "\xE3\x80\x82") == 0 ||
               domain.compare(i, 3, "\xEF\xBC\x8E") == 0 ||
               domain.compare(i, 3, "\xEF\xBD\xA1") == 0) {
      separator = 3;
    }
    if (separator == 0) {
      ++i;
      continue;
    }
    labels.push_back(domain.substr(start, i - start));
    i += separator;
    start = i;
  }
  for (size_t index = 0; index < labels.size(); ++index) {
    if (index > 0) out.push_back('.');
    const std::string_view label = labels[index];
    if (label.size() < 4 || label.substr(0, 4) != "xn--") {
      out.append(label);
      continue;
    }
    std::string lower(label.substr(4));
    for (char& c : lower) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    auto decoded = decode_label(lower);
    if (!decoded) return std::nullopt;
    out.append(*decoded);
  }
  return out;
}

}  // namespace rift::smtp
