#include "compiler/text_encoding.h"

#include <algorithm>

namespace rift {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

bool is_ascii(std::string_view bytes) {
  return std::all_of(bytes.begin(), bytes.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

}  // namespace

std::string to_valid_utf8(std::string_view bytes) {
  std::string out;
  assign_valid_utf8(out, bytes);
  return out;
}

std::string latin1_to_utf8(std::string_view bytes) {
  std::string out;
  assign_latin1_as_utf8(out, bytes);
  return out;
}

void assign_valid_utf8(std::string& out, std::string_view bytes) {
  out.clear();
  if (is_ascii(bytes)) {
    out.append(bytes);
    return;
  }
  out.reserve(bytes.size());
  size_t i = 0;
  while (i < bytes.size()) {
    const auto lead = static_cast<unsigned char>(bytes[i]);
    size_t needed = 0;
    unsigned char lower = 0x80;
    unsigned char upper = 0xBF;
    if (lead < 0x80) {
      out += static_cast<char>(lead);
      ++i;
      continue;
    } else if (lead >= 0xC2 && lead <= 0xDF) {
      needed = 1;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      needed = 2;
      if (lead == 0xE0) lower = 0xA0;
      if (lead == 0xED) upper = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      needed = 3;
      if (lead == 0xF0) lower = 0x90;
      if (lead == 0xF4) upper = 0x8F;
    } else {
      out += kReplacement;
      ++i;
      continue;
    }
    size_t j = i + 1;
    size_t seen = 0;
    while (seen < needed && j < bytes.size()) {
      const auto next = static_cast<unsigned char>(bytes[j]);
      if (next < lower || next > upper) break;
      lower = 0x80;
      upper = 0xBF;
      ++seen;
      ++j;
    }
    if (seen == needed) {
      out.append(bytes.substr(i, j - i));
    } else {
      // The maximal subpart (lead plus the valid continuation bytes so far) is one U+FFFD; the
      // offending byte is looked at again as a potential lead.
      out += kReplacement;
    }
    i = j;
  }
}

void assign_latin1_as_utf8(std::string& out, std::string_view bytes) {
  out.clear();
  if (is_ascii(bytes)) {
    out.append(bytes);
    return;
  }
  out.reserve(bytes.size() * 2);
  for (char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x80) {
      out += c;
    } else {
      out += static_cast<char>(0xC0 | (byte >> 6));
      out += static_cast<char>(0x80 | (byte & 0x3F));
    }
  }
}

void append_utf8(std::string& out, char32_t code) {
  if (code < 0x80) {
    out.push_back(static_cast<char>(code));
  } else if (code < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (code >> 6)));
    out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
  } else if (code < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (code >> 12)));
    out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (code >> 18)));
    out.push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
  }
}

}  // namespace rift
