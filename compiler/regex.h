// ECMAScript-flavoured regular expressions on PCRE2 (docs/mountebank-semantics.md §4.6).
//
// Mountebank evaluates `matches`, `except` and the `copy` behavior with JavaScript's RegExp
// (no `u` flag). std::regex lacks lookbehind and named groups, so patterns are compiled with
// PCRE2 under options that mimic JavaScript: `$` only at the very end, `[^]` matches anything,
// unset backreferences match empty, and escapes JavaScript treats as literals stay literals.
// A Regex is immutable after compile and safe to share between threads.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace rift {

// One match: byte offsets into the subject. groups[0] is the whole match; an unset group is
// nullopt (JavaScript's `undefined`).
struct RegexMatch {
  struct Span {
    std::size_t begin = 0;
    std::size_t end = 0;
  };
  std::vector<std::optional<Span>> groups;

  std::size_t begin() const { return groups[0]->begin; }
  std::size_t end() const { return groups[0]->end; }
  // The text of group `index`, or nullopt when unset or out of range.
  std::optional<std::string_view> group(std::string_view subject, std::size_t index) const;
};

class Regex {
 public:
  // Compiles `new RegExp(source, flags)` with flags "i" for ignore_case and "m" for multiline
  // (the copy behavior's `options`). On failure returns the compiler's message. The `g` flag is
  // not a property here: use replace_all for global behaviour.
  static std::variant<Regex, std::string> compile(std::string_view source, bool ignore_case,
                                                  bool multiline = false);

  // RegExp.prototype.test: an unanchored search.
  bool test(std::string_view subject) const;
  // RegExp.prototype.exec from byte offset `start` (the first match at or after it).
  std::optional<RegexMatch> exec(std::string_view subject, std::size_t start = 0) const;
  // String.prototype.replace with a `g` regex and a literal replacement (no `$` patterns).
  std::string replace_all(std::string_view subject, std::string_view replacement) const;

  const std::string& source() const { return source_; }
  bool ignore_case() const { return ignore_case_; }

  struct Code;

 private:
  Regex(std::shared_ptr<const Code> code, std::string source, bool ignore_case);
  std::shared_ptr<const Code> code_;
  std::string source_;
  bool ignore_case_ = false;
};

}  // namespace rift
