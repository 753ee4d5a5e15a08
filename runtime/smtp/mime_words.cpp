#include "runtime/smtp/mime_words.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <unordered_map>

#include "compiler/base64.h"
#include "compiler/text_encoding.h"
#include "runtime/smtp/charset_labels.h"
#include "runtime/smtp/gmime_support.h"
#include "runtime/smtp/js_text.h"

namespace rift::smtp {
namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// JavaScript's whitespace among the characters of a "binary" string (one per byte).
bool is_binary_space(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte == ' ' || (byte >= 0x09 && byte <= 0x0D) || byte == 0xA0;
}

std::string_view binary_trim(std::string_view bytes) {
  while (!bytes.empty() && is_binary_space(bytes.front())) bytes.remove_prefix(1);
  while (!bytes.empty() && is_binary_space(bytes.back())) bytes.remove_suffix(1);
  return bytes;
}

// `prefix` followed by digits at the start of `text`: the length of both, or 0.
size_t digits_after(std::string_view text, size_t prefix) {
  size_t end = prefix;
  while (end < text.size() && is_digit(text[end])) ++end;
  return end > prefix ? end : 0;
}

// One of normalizeCharset's rewrites: /^<prefix>[-_]?(\d+)/ -> replacement + digits.
bool rewrite_numbered(std::string& charset, std::string_view prefix, std::string_view replacement) {
  if (charset.compare(0, prefix.size(), prefix) != 0) return false;
  size_t at = prefix.size();
  if (at < charset.size() && (charset[at] == '-' || charset[at] == '_')) ++at;
  const size_t end = digits_after(charset, at);
  if (end == 0) return false;
  charset = std::string(replacement) + charset.substr(at);
  return true;
}

// An encoded word =?charset?E?text?= at `at`: its parts, or nullopt. `strict` holds the charset to
// [\w_\-*]+ (libmime's decoding pattern); otherwise any run without '?' ([^?]+, its joining one).
struct EncodedWord {
  std::string_view charset;
  char encoding;
  std::string_view text;
  size_t end;
};

std::optional<EncodedWord> encoded_word_at(std::string_view s, size_t at, bool strict) {
  if (s.compare(at, 2, "=?") != 0) return std::nullopt;
  size_t i = at + 2;
  const size_t charset_begin = i;
  while (i < s.size() && s[i] != '?') {
    const char c = s[i];
    const bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_' ||
                      c == '-' || c == '*';
    if (strict && !word) return std::nullopt;
    ++i;
  }
  if (i == charset_begin || i + 2 >= s.size()) return std::nullopt;
  const char encoding = s[i + 1];
  if (std::string_view("QqBb").find(encoding) == std::string_view::npos || s[i + 2] != '?') {
    return std::nullopt;
  }
  const size_t text_begin = i + 3;
  const size_t question = s.find('?', text_begin);
  if (question == std::string_view::npos || question + 1 >= s.size() || s[question + 1] != '=') {
    return std::nullopt;
  }
  return EncodedWord{s.substr(charset_begin, i - charset_begin), encoding,
                     s.substr(text_begin, question - text_begin), question + 2};
}

// The code point of the `length` bytes at `at` (valid UTF-8), in lower-case hex, at least two
// digits: JavaScript's charCodeAt(0).toString(16), padded as libmime pads it.
std::string code_hex(std::string_view text, size_t at, size_t length) {
  auto lead = static_cast<unsigned char>(text[at]);
  uint32_t code = length == 1 ? lead : lead & (0xFF >> (length + 1));
  for (size_t i = 1; i < length; ++i)
    code = (code << 6) | (static_cast<unsigned char>(text[at + i]) & 0x3F);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (; code > 0; code >>= 4) hex.insert(hex.begin(), kHex[code & 15]);
  while (hex.size() < 2) hex.insert(hex.begin(), '0');
  return hex;
}

bool only_js_space(std::string_view text) {
  size_t at = 0;
  while (at < text.size()) {
    const size_t length = js_space_length(text, at);
    if (length == 0) return false;
    at += length;
  }
  return true;
}

// decodeWords' first three passes: adjacent words of one kind (B or Q) and one charset become
// one word, and the whitespace between adjacent encoded words goes.
std::string join_words(std::string_view s) {
  std::string out;
  size_t copied = 0;
  std::optional<EncodedWord> previous;
  std::string merged_text;  // the text of the word being built, when previous is set
  size_t scan = 0;
  auto flush = [&] {
    if (!previous) return;
    out.append("=?").append(previous->charset).push_back('?');
    out.push_back(previous->encoding);
    out.append("?").append(merged_text).append("?=");
    previous.reset();
  };
  while (scan < s.size()) {
    const size_t candidate = s.find("=?", scan);
    if (candidate == std::string_view::npos) break;
    const auto word = encoded_word_at(s, candidate, false);
    if (!word) {
      scan = candidate + 1;
      continue;
    }
    const std::string_view gap = s.substr(copied, candidate - copied);
    const bool adjacent = previous && only_js_space(gap);
    const bool b = word->encoding == 'B' || word->encoding == 'b';
    const bool previous_b = previous && (previous->encoding == 'B' || previous->encoding == 'b');
    if (adjacent && b == previous_b &&
        normalize_charset(previous->charset) == normalize_charset(word->charset)) {
      merged_text.append(word->text);
    } else {
      flush();
      if (!adjacent) out.append(gap);
      previous = word;
      merged_text.assign(word->text);
    }
    copied = word->end;
    scan = word->end;
  }
  flush();
  out.append(s.substr(copied));
  return out;
}

std::string decode_word(std::string_view charset, char encoding, std::string_view text) {
  // RFC 2231 appends a language to the charset; it is ignored.
  charset = charset.substr(0, charset.find('*'));
  std::string bytes;
  if (encoding == 'Q' || encoding == 'q') {
    // "= 3D" (a split applied wrongly) closes up; every '_' and whitespace is a space.
    std::string spaced;
    for (size_t i = 0; i < text.size();) {
      const size_t space = js_space_length(text, i);
      if (text[i] == '=' && i + 1 < text.size() && js_space_length(text, i + 1) > 0) {
        size_t j = i + 1;
        while (j < text.size() && js_space_length(text, j) > 0) j += js_space_length(text, j);
        if (j < text.size() && hex_value(text[j]) >= 0) {
          spaced.push_back('=');
          i = j;
          continue;
        }
      }
      if (text[i] == '_' || space > 0) {
        spaced.push_back(' ');
        i += space > 0 ? space : 1;
        continue;
      }
      spaced.push_back(text[i++]);
    }
    for (size_t i = 0; i < spaced.size(); ++i) {
      if (spaced[i] == '=' && i + 2 < spaced.size() && hex_value(spaced[i + 1]) >= 0 &&
          hex_value(spaced[i + 2]) >= 0) {
        bytes.push_back(
            static_cast<char>(hex_value(spaced[i + 1]) * 16 + hex_value(spaced[i + 2])));
        i += 2;
        continue;
      }
      bytes.push_back(spaced[i]);
    }
  } else {
    // Each '='-separated piece decodes on its own (joined words keep their padding).
    size_t start = 0;
    while (start <= text.size()) {
      const size_t equals = std::min(text.find('=', start), text.size());
      if (equals > start) bytes.append(base64_decode_lenient(text.substr(start, equals - start)));
      start = equals + 1;
    }
  }
  return decode_charset(bytes, charset);
}

}  // namespace

std::string normalize_charset(std::string_view raw) {
  std::string charset = ascii_lower(js_trim(raw));
  if (auto known = charset_label(charset)) return std::string(*known);
  rewrite_numbered(charset, "utf", "utf-");
  for (std::string_view ascii : {"usascii", "us-ascii", "us_ascii"}) {
    if (charset.compare(0, ascii.size(), ascii) == 0) {
      charset = "windows-1252" + charset.substr(ascii.size());
      break;
    }
  }
  if (!rewrite_numbered(charset, "windows", "windows-"))
    rewrite_numbered(charset, "win", "windows-");
  if (!rewrite_numbered(charset, "latin", "iso-8859-") &&
      !rewrite_numbered(charset, "iso-8859", "iso-8859-") &&
      !rewrite_numbered(charset, "iso_8859", "iso-8859-") &&
      !rewrite_numbered(charset, "iso8859", "iso-8859-")) {
    rewrite_numbered(charset, "", "iso-8859-");
  }
  rewrite_numbered(charset, "l", "iso-8859-");
  if (auto known = charset_label(charset)) return std::string(*known);
  return ascii_upper(charset);
}

std::string decode_charset(std::string_view bytes, std::string_view charset) {
  const std::string name = normalize_charset(charset.empty() ? "UTF-8" : charset);
  const std::string lower = ascii_lower(name);
  // /^(us-)?ascii|utf-8|7bit$/i
  const bool utf8 = lower.compare(0, 5, "ascii") == 0 || lower.compare(0, 8, "us-ascii") == 0 ||
                    lower.find("utf-8") != std::string::npos ||
                    (lower.size() >= 4 && lower.compare(lower.size() - 4, 4, "7bit") == 0);
  if (!utf8) {
    if (auto converted = iconv_to_utf8(bytes, name)) return std::move(*converted);
  }
  return to_valid_utf8(bytes);
}

std::string decode_text_charset(std::string_view bytes, std::string_view charset) {
  std::string squeezed;
  for (char c : ascii_lower(charset)) {
    if ((c >= 'a' && c <= 'z') || is_digit(c)) squeezed.push_back(c);
  }
  if (charset.empty() || squeezed == "ascii" || squeezed == "usascii" || squeezed == "utf8") {
    return to_valid_utf8(bytes);
  }
  // iconv-lite knows these by its own aliases; the system's iconv by the charset's name, or by
  // the name libmime gives it.
  const std::string name(ascii_lower(js_trim(charset)));
  if (auto converted = iconv_to_utf8(bytes, name)) return std::move(*converted);
  if (auto converted = iconv_to_utf8(bytes, normalize_charset(name))) return std::move(*converted);
  return to_valid_utf8(bytes);
}

std::string decode_words(std::string_view text) {
  const std::string joined = join_words(text);
  const std::string_view s = joined;
  std::string out;
  size_t copied = 0;
  size_t scan = 0;
  while (scan < s.size()) {
    const size_t candidate = s.find("=?", scan);
    if (candidate == std::string_view::npos) break;
    const auto word = encoded_word_at(s, candidate, true);
    if (!word) {
      scan = candidate + 1;
      continue;
    }
    out.append(s.substr(copied, candidate - copied));
    out.append(decode_word(word->charset, word->encoding, word->text));
    copied = scan = word->end;
  }
  out.append(s.substr(copied));
  return out;
}

HeaderLine decode_header(std::string_view line) {
  // Unfold: every line break and the spaces and tabs after it become one space.
  std::string unfolded;
  unfolded.reserve(line.size());
  for (size_t i = 0; i < line.size();) {
    if (line[i] == '\r' || line[i] == '\n') {
      i += line[i] == '\r' && i + 1 < line.size() && line[i + 1] == '\n' ? 2 : 1;
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      unfolded.push_back(' ');
      continue;
    }
    unfolded.push_back(line[i++]);
  }
  const std::string_view trimmed = binary_trim(unfolded);
  // /^\s*([^:]+):(.*)$/
  size_t start = 0;
  while (start < trimmed.size() && is_binary_space(trimmed[start])) ++start;
  const size_t colon = trimmed.find(':', start);
  if (colon == std::string_view::npos || colon == start) return {};
  std::string key(binary_trim(trimmed.substr(start, colon - start)));
  for (char& c : key) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return {std::move(key), std::string(binary_trim(trimmed.substr(colon + 1)))};
}

const std::string* HeaderValue::param(std::string_view key) const {
  for (const auto& [name, value] : params) {
    if (name == key) return &value;
  }
  return nullptr;
}

HeaderValue parse_header_value(std::string_view text) {
  // Parameters in order of appearance; a later one with the same name replaces the value in place
  // (a JavaScript object's keys).
  struct Raw {
    std::string key;
    std::string value;
  };
  std::vector<Raw> raw;
  std::unordered_map<std::string, size_t> raw_index;  // a header may hold very many parameters
  auto set = [&](std::string key, std::string value) {
    const auto [at, fresh] = raw_index.emplace(key, raw.size());
    if (!fresh) {
      raw[at->second].value = std::move(value);
      return;
    }
    raw.push_back({std::move(key), std::move(value)});
  };
  HeaderValue response;
  bool in_key = false;
  std::optional<std::string> key;
  std::string value;
  bool quoted = false;
  bool escaped = false;
  for (char c : text) {
    if (in_key) {
      if (c == '=') {
        key = ascii_lower(js_trim(value));
        in_key = false;
        value.clear();
        continue;
      }
      value.push_back(c);
      continue;
    }
    if (escaped) {
      value.push_back(c);
    } else if (c == '\\') {
      escaped = true;
      continue;
    } else if (quoted && c == '"') {
      quoted = false;
    } else if (!quoted && c == '"') {
      quoted = true;
    } else if (!quoted && c == ';') {
      if (!key) {
        response.value = std::string(js_trim(value));
      } else {
        set(*key, std::string(js_trim(value)));
      }
      in_key = true;
      value.clear();
    } else {
      value.push_back(c);
    }
    escaped = false;
  }
  const std::string rest(js_trim(value));
  if (!in_key) {
    if (!key) {
      response.value = rest;
    } else {
      set(*key, rest);
    }
  } else if (!rest.empty()) {
    set(ascii_lower(rest), "");  // a key without a value: "emptykey"
  }

  // RFC 2231: name*0, name*1*, name*=charset'lang'%XX ... gathered per name.
  struct Continued {
    std::string name;
    std::optional<std::string> charset;
    std::vector<std::pair<long, std::string>> parts;
  };
  std::vector<Continued> continued;
  std::unordered_map<std::string, size_t> continued_index;
  std::vector<Raw> plain;
  for (auto& entry : raw) {
    // /\*((\d+)\*?)?$/: "name*", "name*3" or "name*3*".
    const std::string& k = entry.key;
    const bool trailing_star = !k.empty() && k.back() == '*';
    const size_t end = trailing_star ? k.size() - 1 : k.size();
    size_t digits = end;
    while (digits > 0 && is_digit(k[digits - 1])) --digits;
    size_t star = std::string::npos;
    if (digits < end && digits > 0 && k[digits - 1] == '*') {
      star = digits - 1;
    } else if (trailing_star) {
      star = end;  // the '*' alone
      digits = end;
    }
    if (star == std::string::npos) {
      plain.push_back(std::move(entry));
      continue;
    }
    const std::string name = ascii_lower(k.substr(0, star));
    const long number =
        digits < end ? std::stol(k.substr(digits, std::min<size_t>(end - digits, 9))) : 0;
    const auto [at, fresh] = continued_index.emplace(name, continued.size());
    if (fresh) continued.push_back({name, std::nullopt, {}});
    Continued* found = &continued[at->second];
    std::string part = std::move(entry.value);
    // The first part of an encoded parameter: charset'language'value.
    if (number == 0 && trailing_star) {
      const size_t first = part.find('\'');
      const size_t second = first == std::string::npos ? first : part.find('\'', first + 1);
      if (second != std::string::npos) {
        const std::string charset = part.substr(0, first);
        found->charset = charset.empty() ? "utf-8" : charset;
        part = part.substr(second + 1);
      }
    }
    found->parts.emplace_back(number, std::move(part));
  }
  // Gathered names replace a plain parameter of the same name, in its place.
  std::unordered_map<std::string, size_t> param_index;
  for (auto& entry : plain) {
    param_index.emplace(entry.key, response.params.size());
    response.params.emplace_back(std::move(entry.key), std::move(entry.value));
  }
  for (auto& gathered : continued) {
    std::stable_sort(gathered.parts.begin(), gathered.parts.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::string joined;
    for (const auto& part : gathered.parts) joined.append(part.second);
    std::string decoded;
    if (gathered.charset) {
      // "%AB" becomes an encoded word's "=AB"; '=', '?', '_' and whitespace are escaped first.
      std::string word = "=?" + *gathered.charset + "?Q?";
      for (size_t i = 0; i < joined.size();) {
        const char c = joined[i];
        const size_t space = js_space_length(joined, i);
        if (c == ' ') {
          word.push_back('_');
          ++i;
        } else if (c == '=' || c == '?' || c == '_' || space > 0) {
          // "%" and the character's code in hex, at least two digits (then '%' turns to '=').
          word.push_back('=');
          word.append(code_hex(joined, i, space > 0 ? space : 1));
          i += space > 0 ? space : 1;
        } else {
          word.push_back(c == '%' ? '=' : c);
          ++i;
        }
      }
      word.append("?=");
      decoded = decode_words(word);
    } else {
      decoded = decode_words(joined);
    }
    if (const auto existing = param_index.find(gathered.name); existing != param_index.end()) {
      response.params[existing->second].second = std::move(decoded);
    } else {
      response.params.emplace_back(gathered.name, std::move(decoded));
    }
  }
  return response;
}

std::string decode_flowed(std::string_view bytes, bool del_sp) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (true) {
    const size_t newline = bytes.find('\n', start);
    if (newline == std::string_view::npos) {
      lines.push_back(bytes.substr(start));
      break;
    }
    size_t end = newline;
    if (end > start && bytes[end - 1] == '\r') --end;
    lines.push_back(bytes.substr(start, end - start));
    start = newline + 1;
  }
  std::string joined(lines.front());
  size_t last_line = 0;  // where the last line of `joined` begins
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::string_view tail = std::string_view(joined).substr(last_line);
    const bool soft = !joined.empty() && joined.back() == ' ' && tail != "-- ";
    if (soft) {
      if (del_sp) joined.pop_back();
    } else {
      joined.push_back('\n');
      last_line = joined.size();
    }
    joined.append(lines[i]);
  }
  // Space-stuffing: one leading space off every line.
  std::string out;
  out.reserve(joined.size());
  bool line_start = true;
  for (char c : joined) {
    if (line_start && c == ' ') {
      line_start = false;
      continue;
    }
    line_start = c == '\n' || c == '\r';
    out.push_back(c);
  }
  return out;
}

std::string quoted_printable_decode(std::string_view bytes) {
  // Node's "ascii" decoding clears each byte's high bit.
  std::string text(bytes);
  for (char& c : text) c = static_cast<char>(static_cast<unsigned char>(c) & 0x7F);
  // /[\t ]+$/gm: spaces and tabs before each line end (LF or CR) and at the very end.
  std::string stripped;
  stripped.reserve(text.size());
  size_t pending = 0;  // spaces and tabs seen but not yet written
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ' || c == '\t') {
      ++pending;
      continue;
    }
    if (c != '\n' && c != '\r') stripped.append(text, i - pending, pending);
    pending = 0;
    stripped.push_back(c);
  }
  // /=(?:\r?\n|$)/g: soft line breaks, all of them before any =XX is read.
  std::string joined;
  joined.reserve(stripped.size());
  for (size_t i = 0; i < stripped.size(); ++i) {
    if (stripped[i] == '=') {
      if (i + 1 == stripped.size()) break;
      if (stripped[i + 1] == '\n') {
        ++i;
        continue;
      }
      if (stripped[i + 1] == '\r' && i + 2 < stripped.size() && stripped[i + 2] == '\n') {
        i += 2;
        continue;
      }
    }
    joined.push_back(stripped[i]);
  }
  std::string out;
  out.reserve(joined.size());
  for (size_t i = 0; i < joined.size(); ++i) {
    if (joined[i] == '=' && i + 2 < joined.size() && hex_value(joined[i + 1]) >= 0 &&
        hex_value(joined[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex_value(joined[i + 1]) * 16 + hex_value(joined[i + 2])));
      i += 2;
      continue;
    }
    out.push_back(joined[i]);
  }
  return out;
}

}  // namespace rift::smtp
