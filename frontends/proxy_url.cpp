#include "frontends/proxy_url.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <vector>

#include "compiler/ascii.h"
#include "compiler/js_value.h"

namespace rift::frontends {
namespace {

bool is_special(const std::string& scheme) {
  return scheme == "http" || scheme == "https" || scheme == "ws" || scheme == "wss" ||
         scheme == "ftp";
}

using ascii::lower;

bool valid_host(const std::string& host) {
  if (host.empty()) return false;
  if (host.front() == '[') return host.back() == ']' && host.size() > 2;
  // Characters the WHATWG host parser forbids.
  return host.find_first_of(" #%/:<>?@[\\]^|") == std::string::npos;
}

bool valid_port(const std::string& port) {
  if (port.empty()) return true;
  if (!std::all_of(port.begin(), port.end(), [](unsigned char c) { return std::isdigit(c); })) {
    return false;
  }
  return port.size() <= 5 && std::stoi(port) <= 65535;
}

// Percent-encodes what the URL parser's path percent-encode set covers, then resolves "." and
// ".." segments, so "/a b/../c" reports as "/c" just like Node.
std::string normalize_path(std::string path) {
  std::replace(path.begin(), path.end(), '\\', '/');
  std::string encoded;
  for (unsigned char c : path) {
    if (c <= 0x20 || c >= 0x7f || c == '"' || c == '<' || c == '>' || c == '`' || c == '{' ||
        c == '}') {
      char buffer[4];
      std::snprintf(buffer, sizeof buffer, "%%%02X", c);
      encoded += buffer;
    } else {
      encoded += static_cast<char>(c);
    }
  }
  std::vector<std::string> segments;
  std::size_t start = 1;  // skip the leading '/'
  bool trailing_slash = false;
  while (start <= encoded.size()) {
    const std::size_t slash = std::min(encoded.find('/', start), encoded.size());
    const std::string segment = encoded.substr(start, slash - start);
    const std::string folded = lower(segment);
    const bool last = slash == encoded.size();
    if (folded == ".." || folded == ".%2e" || folded == "%2e." || folded == "%2e%2e") {
      if (!segments.empty()) segments.pop_back();
      trailing_slash = last;
    } else if (folded == "." || folded == "%2e") {
      trailing_slash = last;
    } else {
      segments.push_back(segment);
      trailing_slash = false;
    }
    start = slash + 1;
  }
  std::string result;
  for (const auto& segment : segments) result += "/" + segment;
  if (trailing_slash || result.empty()) result += "/";
  return result;
}

}  // namespace

std::optional<std::string> url_pathname(const std::string& raw) {
  // The parser trims C0 controls and spaces and drops tabs and newlines anywhere.
  std::string url;
  for (char c : raw) {
    if (c != '\t' && c != '\n' && c != '\r') url += c;
  }
  const auto not_space = [](unsigned char c) { return c > 0x20; };
  url.erase(url.begin(), std::find_if(url.begin(), url.end(), not_space));
  url.erase(std::find_if(url.rbegin(), url.rend(), not_space).base(), url.end());

  const std::size_t colon = url.find(':');
  if (colon == std::string::npos || colon == 0 ||
      !std::isalpha(static_cast<unsigned char>(url[0]))) {
    return std::nullopt;
  }
  for (std::size_t i = 1; i < colon; ++i) {
    const unsigned char c = static_cast<unsigned char>(url[i]);
    if (!std::isalnum(c) && c != '+' && c != '-' && c != '.') return std::nullopt;
  }
  const std::string scheme = lower(url.substr(0, colon));
  if (!is_special(scheme)) return std::string();

  std::string rest = url.substr(colon + 1);
  rest.erase(0, rest.find_first_not_of("/\\"));
  const std::size_t authority_end = std::min(rest.find_first_of("/\\?#"), rest.size());
  std::string authority = rest.substr(0, authority_end);
  if (const std::size_t at = authority.rfind('@'); at != std::string::npos) {
    authority.erase(0, at + 1);
  }
  std::string host = authority;
  std::string port;
  const std::size_t bracket = authority.rfind(']');
  const std::size_t port_colon = authority.rfind(':');
  if (port_colon != std::string::npos && (bracket == std::string::npos || port_colon > bracket)) {
    host = authority.substr(0, port_colon);
    port = authority.substr(port_colon + 1);
  }
  if (!valid_host(host) || !valid_port(port)) return std::nullopt;

  std::string path = rest.substr(authority_end);
  path = path.substr(0, std::min(path.find_first_of("?#"), path.size()));
  if (path.empty()) return std::string("/");
  return normalize_path(path);
}

std::optional<MbError> check_proxy_to(const ir::Json* to) {
  if (to == nullptr) return bad_data("Missing to");
  // `new URL(to)` stringifies whatever it is given (null becomes "null").
  const std::string text = js::to_string(*to);
  const auto pathname = url_pathname(text);
  if (!pathname) {
    // Node throws a TypeError (code ERR_INVALID_URL) whose message Mountebank does not echo.
    return bad_data("Invalid URL: " + text);
  }
  // url_pathname only succeeds with a leading scheme, so the first ':' ends it.
  const std::size_t start = text.find_first_not_of(" \t\n\r");
  const std::string scheme = lower(text.substr(start, text.find(':') - start));
  if ((scheme == "http" || scheme == "https") && *pathname != "/") {
    return bad_data("proxy.to must not contain a path '" + *pathname + "'");
  }
  return std::nullopt;
}

}  // namespace rift::frontends
