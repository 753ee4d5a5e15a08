// Literals a JavaScript regex cannot match without: the planner's handle on `matches`
// (compiler/plan_facts.cpp), and the one place that reads them off a regex's source text.
//
// Read conservatively from the source text, never by running the regex:
//
// - regex_head: the literal every match starts with, when the pattern is `^` followed by plain
//   characters or escaped punctuation: the path prefix (or, for `^literal$`, the exact path) a
//   `matches` predicate is filed under.
// - regex_required_literal: for the patterns without such a head, the longest run of plain
//   characters every match must contain (not under a quantifier that allows zero, not inside a
//   group or class, no alternation anywhere). Letters that case-insensitive matching may pair
//   with non-ASCII characters (k with the Kelvin sign, s with the long s) end a run, so an
//   ASCII-folded comparison stays a necessary condition.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rift {

// The literal every match of `pattern` starts with, as written (not folded). `whole` is set when
// the literal is the entire match (`^literal$`). Nothing for patterns with `|`, non-printable or
// non-ASCII characters, or an empty literal.
struct RegexHead {
  std::string literal;
  bool whole = false;
};
std::optional<RegexHead> regex_head(std::string_view pattern);

// The longest literal every match contains, ASCII-folded; empty when there is none (or the
// source is malformed).
std::string regex_required_literal(std::string_view source, bool caseless);

}  // namespace rift
