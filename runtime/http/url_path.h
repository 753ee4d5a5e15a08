// The request-target as WHATWG `new URL(target, "http://localhost")` sees it: Mountebank's
// `path` and the raw query it parses.
#pragma once

#include <string>
#include <string_view>

namespace rift::http {

struct TargetParts {
  std::string path;        // dot segments resolved, unsafe bytes %-encoded, existing %xx kept
  std::string_view query;  // raw text after '?', without fragment; empty when none
};

// Quirk kept for Mountebank parity: "//x/y" is scheme-relative, so "x" is a host and the path
// is "/y".
TargetParts split_target(std::string_view target);

// An absolute-form target ("http://host:2525/imposters?x=1", RFC 9112 §3.2.2) without its
// scheme and authority, as Node's url.parse (and so Express's router) reads it: the path and
// query (an empty path stands for "/"). Any other form is returned unchanged.
std::string_view strip_scheme_and_authority(std::string_view target);

// The host of an authority ("host:port"), in lower case: "API.Example.test:8080" ->
// "api.example.test"; "[::1]:80" -> "[::1]".
std::string host_of(std::string_view authority);

// The same, writing the path over `path` (its capacity reused); returns the raw query.
std::string_view split_target_into(std::string_view target, std::string& path);

}  // namespace rift::http
