// JavaScript's string whitespace and case rules over UTF-8 text: smtp-server and mailparser trim,
// split on /\s+/ and change case with them, so Rift's reading of a command or a header matches
// theirs, Unicode spaces included.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rift::smtp {

// The length of the JavaScript whitespace or line terminator starting at `at` (0 if none).
size_t js_space_length(std::string_view text, size_t at);
// String.prototype.trim(): JavaScript's WhiteSpace and LineTerminator code points at both ends.
std::string_view js_trim(std::string_view text);
// str.split(/\s+/): an empty first piece when `text` starts with whitespace, [""] for "".
std::vector<std::string_view> js_split_whitespace(std::string_view text);
// toUpperCase()/toLowerCase() on ASCII letters (the only ones the callers compare).
std::string ascii_upper(std::string_view text);
std::string ascii_lower(std::string_view text);

}  // namespace rift::smtp
