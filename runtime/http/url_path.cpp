#include "runtime/http/url_path.h"

#include <strings.h>

#include <vector>

#include "compiler/ascii.h"

namespace rift::http {
namespace {

bool is_separator(char c) {
  return c == '/' || c == '\\';
}

bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool is_scheme_char(char c) {
  return is_alpha(c) || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
}

bool is_single_dot(std::string_view segment) {
  return segment == "." || equals_ignoring_case(segment, "%2e");
}

bool is_double_dot(std::string_view segment) {
  return segment == ".." || equals_ignoring_case(segment, ".%2e") ||
         equals_ignoring_case(segment, "%2e.") || equals_ignoring_case(segment, "%2e%2e");
}

// WHATWG path percent-encode set: C0 controls, space, non-ASCII, and " # < > ? ` { }.
bool needs_encoding(unsigned char c) {
  return c <= 0x20 || c >= 0x7F || c == '"' || c == '#' || c == '<' || c == '>' || c == '?' ||
         c == '`' || c == '{' || c == '}';
}

void append_encoded(std::string& out, std::string_view segment) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (char c : segment) {
    const auto byte = static_cast<unsigned char>(c);
    if (needs_encoding(byte)) {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 0xF];
    } else {
      out += c;
    }
  }
}

// Length of "scheme:" at the start of `text`, or 0 when it does not start with a scheme.
size_t scheme_length(std::string_view text) {
  if (text.empty() || !is_alpha(text[0])) return 0;
  size_t i = 1;
  while (i < text.size() && is_scheme_char(text[i])) ++i;
  return i < text.size() && text[i] == ':' ? i + 1 : 0;
}

// Skips an authority ("host:port", "user@host") up to the start of the path.
size_t skip_authority(std::string_view text, size_t at) {
  while (at < text.size() && !is_separator(text[at]) && text[at] != '?' && text[at] != '#') ++at;
  return at;
}

// True when resolving would give `raw` back unchanged: it starts with '/', and has no '\\', no
// byte to percent-encode and no dot segment. Most request paths are like that, and copying them
// needs neither the segment list nor a second buffer.
bool already_resolved(std::string_view raw) {
  if (raw.empty() || raw[0] != '/') return false;
  size_t segment_start = 1;
  for (size_t i = 1; i <= raw.size(); ++i) {
    if (i < raw.size()) {
      const char c = raw[i];
      if (c == '\\' || needs_encoding(static_cast<unsigned char>(c))) return false;
      if (c != '/') continue;
    }
    const std::string_view segment = raw.substr(segment_start, i - segment_start);
    if (is_single_dot(segment) || is_double_dot(segment)) return false;
    segment_start = i + 1;
  }
  return true;
}

void resolve_path(std::string_view raw, std::string& out) {
  out.clear();
  if (already_resolved(raw)) {
    out.append(raw);
    return;
  }
  // The path start state consumes one leading separator; every later separator ends a segment.
  if (!raw.empty() && is_separator(raw[0])) raw.remove_prefix(1);
  std::vector<std::string_view> segments;
  for (;;) {
    size_t end = 0;
    while (end < raw.size() && !is_separator(raw[end])) ++end;
    const std::string_view segment = raw.substr(0, end);
    const bool last = end == raw.size();
    if (is_double_dot(segment)) {
      if (!segments.empty()) segments.pop_back();
      if (last) segments.emplace_back();
    } else if (is_single_dot(segment)) {
      if (last) segments.emplace_back();
    } else {
      segments.push_back(segment);
    }
    if (last) break;
    raw.remove_prefix(end + 1);
  }
  out.reserve(raw.size() + 8);
  for (const auto& segment : segments) {
    out += '/';
    append_encoded(out, segment);
  }
  if (out.empty()) out.push_back('/');
}

std::string_view trim_controls(std::string_view text) {
  while (!text.empty() && static_cast<unsigned char>(text.front()) <= 0x20) text.remove_prefix(1);
  while (!text.empty() && static_cast<unsigned char>(text.back()) <= 0x20) text.remove_suffix(1);
  return text;
}

}  // namespace

std::string_view strip_scheme_and_authority(std::string_view target) {
  const size_t scheme = scheme_length(target);
  if (scheme == 0 || target.substr(scheme, 2) != "//") return target;
  return target.substr(skip_authority(target, scheme + 2));
}

TargetParts split_target(std::string_view target) {
  TargetParts parts;
  parts.query = split_target_into(target, parts.path);
  return parts;
}

std::string_view split_target_into(std::string_view target, std::string& path) {
  target = trim_controls(target);
  size_t path_start = 0;
  if (const size_t scheme = scheme_length(target)) {
    // Absolute-form ("http://host/p"): any number of slashes, then the authority.
    path_start = scheme;
    while (path_start < target.size() && is_separator(target[path_start])) ++path_start;
    path_start = skip_authority(target, path_start);
  } else if (target.size() >= 2 && is_separator(target[0]) && is_separator(target[1])) {
    path_start = skip_authority(target, 2);
  }
  size_t path_end = path_start;
  while (path_end < target.size() && target[path_end] != '?' && target[path_end] != '#') {
    ++path_end;
  }
  resolve_path(target.substr(path_start, path_end - path_start), path);
  if (path_end < target.size() && target[path_end] == '?') {
    std::string_view query = target.substr(path_end + 1);
    return query.substr(0, query.find('#'));
  }
  return {};
}

std::string host_of(std::string_view authority) {
  if (authority.starts_with('[')) {
    const size_t close = authority.find(']');
    authority = authority.substr(0, close == std::string_view::npos ? authority.size() : close + 1);
  } else if (const size_t colon = authority.rfind(':'); colon != std::string_view::npos) {
    authority = authority.substr(0, colon);
  }
  return ascii::lower(authority);
}

}  // namespace rift::http
