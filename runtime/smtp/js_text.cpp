#include "runtime/smtp/js_text.h"

#include <cstdint>

namespace rift::smtp {
namespace {

// The length of the JavaScript whitespace at `at` (0 when there is none). Text is valid UTF-8.
size_t space_at(std::string_view text, size_t at) {
  const auto c = static_cast<unsigned char>(text[at]);
  if (c == ' ' || (c >= 0x09 && c <= 0x0D)) return 1;
  if (c < 0xC2) return 0;
  auto byte = [&](size_t i) {
    return at + i < text.size() ? static_cast<unsigned char>(text[at + i]) : 0;
  };
  if (c == 0xC2 && byte(1) == 0xA0) return 2;                     // U+00A0
  if (c == 0xE1 && byte(1) == 0x9A && byte(2) == 0x80) return 3;  // U+1680
  if (c == 0xE2 && byte(1) == 0x80) {
    const unsigned char third = byte(2);
    // U+2000..U+200A, U+2028, U+2029, U+202F
    if ((third >= 0x80 && third <= 0x8A) || third == 0xA8 || third == 0xA9 || third == 0xAF)
      return 3;
  }
  if (c == 0xE2 && byte(1) == 0x81 && byte(2) == 0x9F) return 3;  // U+205F
  if (c == 0xE3 && byte(1) == 0x80 && byte(2) == 0x80) return 3;  // U+3000
  if (c == 0xEF && byte(1) == 0xBB && byte(2) == 0xBF) return 3;  // U+FEFF
  return 0;
}

// The length of whitespace ending at `end` (exclusive), 0 if none.
size_t space_before(std::string_view text, size_t end) {
  for (size_t length = 1; length <= 3 && length <= end; ++length) {
    const size_t at = end - length;
    if (length > 1 && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) continue;
    return space_at(text, at) == length ? length : 0;
  }
  return 0;
}

}  // namespace

size_t js_space_length(std::string_view text, size_t at) {
  return space_at(text, at);
}

std::string_view js_trim(std::string_view text) {
  size_t begin = 0;
  while (begin < text.size()) {
    const size_t length = space_at(text, begin);
    if (length == 0) break;
    begin += length;
  }
  size_t end = text.size();
  while (end > begin) {
    const size_t length = space_before(text, end);
    if (length == 0) break;
    end -= length;
  }
  return text.substr(begin, end - begin);
}

std::vector<std::string_view> js_split_whitespace(std::string_view text) {
  std::vector<std::string_view> pieces;
  size_t start = 0;
  size_t at = 0;
  while (at < text.size()) {
    const size_t length = space_at(text, at);
    if (length == 0) {
      ++at;
      continue;
    }
    pieces.push_back(text.substr(start, at - start));
    at += length;
    while (at < text.size()) {
      const size_t more = space_at(text, at);
      if (more == 0) break;
      at += more;
    }
    start = at;
  }
  pieces.push_back(text.substr(start));
  return pieces;
}

std::string ascii_upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace rift::smtp
