// What the fuzz targets share: the input cut into parts, so that seeds stay readable text a
// person can write and a mutator can still cross over; and a stop for a broken contract.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/ir.h"

namespace rift::fuzz {

// A line holding only "%%" separates the parts of an input (a selector from its body, say).
inline constexpr std::string_view kSeparator = "\n%%\n";

inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// At most `most` parts; the last takes the rest of the input, separators and all, so a body may
// contain anything.
inline std::vector<std::string_view> split_parts(std::string_view text, size_t most) {
  std::vector<std::string_view> parts;
  while (parts.size() + 1 < most) {
    const size_t at = text.find(kSeparator);
    if (at == std::string_view::npos) break;
    parts.push_back(text.substr(0, at));
    text.remove_prefix(at + kSeparator.size());
  }
  parts.push_back(text);
  return parts;
}

// The text with each invalid UTF-8 sequence replaced: what a selector or body is by the time it
// reaches the compiler, since the admin API and the request builder decode bytes as UTF-8 first.
// (nlohmann's replacing dump, so that targets need not link the runtime for it.)
inline std::string valid_utf8(std::string_view text) {
  const std::string quoted =
      ir::Json(std::string(text)).dump(-1, ' ', false, ir::Json::error_handler_t::replace);
  return ir::Json::parse(quoted).get<std::string>();
}

// Two ways of computing one answer disagreed: a finding like a crash, so it stops the run the
// same way (libFuzzer saves the input).
[[noreturn]] inline void contract_broken(const char* what) {
  std::fprintf(stderr, "fuzz contract broken: %s\n", what);
  std::abort();
}

}  // namespace rift::fuzz
