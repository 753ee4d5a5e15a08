#include "runtime/smtp/address_parser.h"

#include <algorithm>
#include <vector>

#include "runtime/smtp/js_text.h"
#include "runtime/smtp/mime_words.h"
#include "runtime/smtp/punycode.h"

namespace rift::smtp {
namespace {

struct Token {
  bool is_operator;
  std::string value;
};

// addressparser's Tokenizer: operators, and the text between them with control bytes dropped.
std::vector<Token> tokenize(std::string_view text) {
  std::vector<Token> list;
  bool in_text = false;  // the last list entry is a text node still being written
  char expecting = 0;
  bool escaped = false;
  auto closing = [](char c) -> int {
    switch (c) {
      case '"':
        return '"';
      case '(':
        return ')';
      case '<':
        return '>';
      case ':':
        return ';';
      case ',':
      case ';':
        return 0;
      default:
        return -1;  // not an operator
    }
  };
  for (char c : text) {
    if (!escaped) {
      if (expecting != 0 && c == expecting) {
        list.push_back({true, std::string(1, c)});
        in_text = false;
        expecting = 0;
        continue;
      }
      if (expecting == 0 && closing(c) >= 0) {
        list.push_back({true, std::string(1, c)});
        in_text = false;
        expecting = static_cast<char>(closing(c));
        continue;
      }
      if ((expecting == '"' || expecting == '\'') && c == '\\') {
        escaped = true;
        continue;
      }
    }
    if (!in_text) {
      list.push_back({false, ""});
      in_text = true;
    }
    if (c == '\n') c = ' ';
    if (static_cast<unsigned char>(c) >= 0x21 || c == ' ' || c == '\t')
      list.back().value.push_back(c);
    escaped = false;
  }
  std::vector<Token> tokens;
  for (auto& token : list) {
    token.value = std::string(js_trim(token.value));
    if (!token.value.empty()) tokens.push_back(std::move(token));
  }
  return tokens;
}

bool has_js_space(std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (js_space_length(text, i) > 0) return true;
  }
  return false;
}

// /^[^@\s]+@[^@\s]+$/
bool is_bare_address(std::string_view text) {
  const size_t at = text.find('@');
  return at != std::string_view::npos && at > 0 && at + 1 < text.size() &&
         text.find('@', at + 1) == std::string_view::npos && !has_js_space(text);
}

bool is_word(std::string_view text, size_t at) {
  if (at >= text.size()) return false;
  const char c = text[at];
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool boundary(std::string_view text, size_t at) {
  return (at > 0 && is_word(text, at - 1)) != is_word(text, at);
}

size_t space_run(std::string_view text, size_t at) {
  size_t end = at;
  while (end < text.size()) {
    const size_t length = js_space_length(text, end);
    if (length == 0) break;
    end += length;
  }
  return end;
}

// The first match of /\s*\b[^@\s]+@[^\s]+\b\s*/ in `text`: [begin, end), or nullopt.
std::optional<std::pair<size_t, size_t>> find_embedded_address(std::string_view text) {
  if (text.find('@') == std::string_view::npos) return std::nullopt;
  // Scans shared by every start position, so that a long header costs linear time (a regular
  // expression engine would try each start afresh).
  const size_t n = text.size();
  std::vector<size_t> space_end(n + 1, n);  // where the whitespace starting here ends
  std::vector<size_t> stop(n + 1, n);       // the next '@' or whitespace from here
  std::vector<size_t> next_space(n + 1, n);
  for (size_t i = n; i-- > 0;) {
    const size_t space = js_space_length(text, i);
    space_end[i] = space > 0 ? space_end[std::min(n, i + space)] : i;
    next_space[i] = space > 0 ? i : next_space[i + 1];
    stop[i] = (space > 0 || text[i] == '@') ? i : stop[i + 1];
  }
  std::vector<std::optional<size_t>> domain_ends(n);  // per '@': where [^\s]+\b ends, if it can
  std::vector<bool> domain_known(n, false);
  for (size_t begin = 0; begin < n; ++begin) {
    const size_t local = space_end[begin];
    if (local >= n || !boundary(text, local)) continue;
    const size_t at = stop[local];
    if (at == local || at >= n || text[at] != '@') continue;
    if (!domain_known[at]) {
      domain_known[at] = true;
      // [^\s]+ then \b: back from the next whitespace to a word boundary, one character at least.
      size_t end = next_space[at + 1];
      while (end > at + 1 && !boundary(text, end)) --end;
      if (end > at + 1) domain_ends[at] = end;
    }
    if (!domain_ends[at]) continue;
    return std::make_pair(begin, space_end[*domain_ends[at]]);
  }
  return std::nullopt;
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out.append(separator);
    out.append(parts[i]);
  }
  return out;
}

std::vector<MailAddress> handle_address(const std::vector<Token>& tokens) {
  enum State { text, address, comment, group };
  State state = text;
  bool is_group = false;
  std::vector<std::string> data[4];
  for (const Token& token : tokens) {
    if (token.is_operator) {
      switch (token.value[0]) {
        case '<':
          state = address;
          break;
        case '(':
          state = comment;
          break;
        case ':':
          state = group;
          is_group = true;
          break;
        default:
          state = text;
      }
      continue;
    }
    std::string value = token.value;
    if (state == address) {
      // An unquoted name with a '<' in it: everything up to that '<' goes (as Apple Mail does).
      if (const size_t open = value.find('<'); open != std::string::npos) {
        value.erase(0, space_run(value, open + 1));
      }
    }
    data[state].push_back(std::move(value));
  }
  if (data[text].empty() && !data[comment].empty()) std::swap(data[text], data[comment]);

  if (is_group) {
    MailAddress entry;
    entry.name = join(data[text], " ");
    entry.group =
        data[group].empty() ? std::vector<MailAddress>{} : parse_addresses(join(data[group], ","));
    return {std::move(entry)};
  }
  // No <address>: guess one in the text, a whole word first, then one inside a word run.
  if (data[address].empty() && !data[text].empty()) {
    for (size_t i = data[text].size(); i-- > 0;) {
      if (is_bare_address(data[text][i])) {
        data[address].push_back(data[text][i]);
        data[text].erase(data[text].begin() + static_cast<long>(i));
        break;
      }
    }
    if (data[address].empty()) {
      for (size_t i = data[text].size(); i-- > 0;) {
        std::string& piece = data[text][i];
        if (const auto found = find_embedded_address(piece)) {
          data[address].push_back(std::string(
              js_trim(std::string_view(piece).substr(found->first, found->second - found->first))));
          piece = piece.substr(0, found->first) + " " + piece.substr(found->second);
        }
        piece = std::string(js_trim(piece));
        if (!data[address].empty()) break;
      }
    }
  }
  if (data[text].empty() && !data[comment].empty()) std::swap(data[text], data[comment]);
  if (data[address].size() > 1) {
    data[text].insert(data[text].end(), data[address].begin() + 1, data[address].end());
    data[address].resize(1);
  }
  const std::string joined_text = join(data[text], " ");
  const std::string joined_address = join(data[address], " ");
  MailAddress entry;
  entry.address = !joined_address.empty() ? joined_address : joined_text;
  entry.name = !joined_text.empty() ? joined_text : joined_address;
  if (*entry.address == entry.name) {
    if (entry.address->find('@') != std::string::npos) {
      entry.name.clear();
    } else {
      entry.address->clear();
    }
  }
  return {std::move(entry)};
}

// /^(=\?([^?]+)\?[Bb]\?[^?]*\?=)(\s*=\?([^?]+)\?[Bb]\?[^?]*\?=)*$/
bool only_base64_words(std::string_view name) {
  size_t at = 0;
  bool first = true;
  while (at < name.size() || first) {
    if (!first) at = space_run(name, at);
    if (name.compare(at, 2, "=?") != 0) return false;
    const size_t charset_end = name.find('?', at + 2);
    if (charset_end == std::string_view::npos || charset_end == at + 2) return false;
    if (charset_end + 2 >= name.size() ||
        (name[charset_end + 1] != 'B' && name[charset_end + 1] != 'b') ||
        name[charset_end + 2] != '?') {
      return false;
    }
    const size_t text_end = name.find('?', charset_end + 3);
    if (text_end == std::string_view::npos || text_end + 1 >= name.size() ||
        name[text_end + 1] != '=') {
      return false;
    }
    at = text_end + 2;
    first = false;
  }
  return true;
}

void decode_addresses(std::vector<MailAddress>& addresses) {
  // Entries re-read from a decoded name are not re-read again (mailparser's WeakSet).
  std::vector<bool> reread(addresses.size(), false);
  for (size_t i = 0; i < addresses.size(); ++i) {
    addresses[i].name = std::string(js_trim(addresses[i].name));
    const bool no_address = !addresses[i].address || addresses[i].address->empty();
    if (no_address && !reread[i] && only_base64_words(addresses[i].name)) {
      std::vector<MailAddress> parsed = parse_addresses(decode_words(addresses[i].name));
      for (auto& added : parsed) {
        addresses.push_back(std::move(added));
        reread.push_back(true);
      }
      addresses.erase(addresses.begin() + static_cast<long>(i));
      reread.erase(reread.begin() + static_cast<long>(i));
      --i;  // wraps at 0, and the loop's ++i brings it back
      continue;
    }
    MailAddress& entry = addresses[i];
    if (!entry.name.empty()) entry.name = decode_words(entry.name);
    if (entry.address && entry.address->find("@xn--") != std::string::npos) {
      const size_t at = entry.address->rfind('@');
      if (auto unicode = punycode_to_unicode(std::string_view(*entry.address).substr(at + 1))) {
        *entry.address = entry.address->substr(0, at + 1) + *unicode;
      }
    }
    if (entry.group) decode_addresses(*entry.group);
  }
}

}  // namespace

std::vector<MailAddress> parse_addresses(std::string_view text) {
  const std::vector<Token> tokens = tokenize(text);
  std::vector<std::vector<Token>> groups(1);
  for (const Token& token : tokens) {
    if (token.is_operator && (token.value == "," || token.value == ";")) {
      if (!groups.back().empty()) groups.emplace_back();
      continue;
    }
    groups.back().push_back(token);
  }
  std::vector<MailAddress> addresses;
  for (const auto& group : groups) {
    if (group.empty()) continue;
    for (auto& entry : handle_address(group)) addresses.push_back(std::move(entry));
  }
  return addresses;
}

std::vector<MailAddress> parse_address_header(std::string_view text) {
  std::vector<MailAddress> addresses = parse_addresses(text);
  decode_addresses(addresses);
  return addresses;
}

}  // namespace rift::smtp
