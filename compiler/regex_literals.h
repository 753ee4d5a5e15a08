// Literals a JavaScript regex cannot match without: the planner's handle on `matches`.
//
// Read conservatively from the source text, never by running the regex: a run of plain
// characters is kept only when every match must contain it (not under a quantifier that allows
// zero, not inside a group or class, no alternation anywhere). Letters that case-insensitive
// matching may pair with non-ASCII characters (k with the Kelvin sign, s with the long s) end a
// run, so an ASCII-folded comparison stays a necessary condition.
#pragma once

#include <string>
#include <string_view>

namespace rift {

struct RegexLiterals {
  std::string head;      // after a leading ^: the literal every match starts with (folded)
  std::string required;  // the longest literal every match contains (folded); may be empty
};

RegexLiterals regex_literals(std::string_view source, bool caseless);

}  // namespace rift
