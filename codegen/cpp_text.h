// Spelling values into generated C++: string literals, comments and identifiers that are safe
// whatever bytes a stub's paths and predicates contain.
#pragma once

#include <string>
#include <string_view>

namespace rift::codegen {

// "..." with every quote, backslash and non-printable byte escaped.
std::string cpp_string(std::string_view text);
// One line of comment text: control bytes and comment delimiters defused, cut at `limit`.
std::string comment_text(std::string_view text, size_t limit = 100);
// [A-Za-z0-9_] only; anything else becomes '_'.
std::string identifier(std::string_view text);
// '...' for a re2c case-insensitive literal, or "" when `text` cannot be one (empty, or bytes
// outside printable ASCII).
std::string re2c_folded_literal(std::string_view text);

}  // namespace rift::codegen
