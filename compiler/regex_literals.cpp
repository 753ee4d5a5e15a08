// Reading literals off a regex's source text (see regex_literals.h).
#include "compiler/regex_literals.h"

#include "compiler/ascii.h"

namespace rift {
namespace {

// A printable ASCII character that stands for itself outside a class.
bool is_plain(char c) {
  const auto byte = static_cast<unsigned char>(c);
  if (byte < 0x20 || byte >= 0x7f) return false;
  return std::string_view("\\^$.|?*+()[]{}").find(c) == std::string_view::npos;
}

// Escapes that stand for one literal character.
bool is_escaped_literal(char c) {
  return std::string_view("/\\.-^$|?*+()[]{}:,=!<>#&~%@'\"`;_ ").find(c) != std::string_view::npos;
}

bool risky_when_caseless(char c) {
  const char lower = ascii::lower(c);
  return lower == 'k' || lower == 's';
}

// Skips a quantifier at `i`, if any. Returns whether it allows zero repetitions.
bool skip_quantifier(std::string_view source, size_t& i, bool& quantified) {
  quantified = false;
  if (i >= source.size()) return false;
  bool zero = false;
  const char c = source[i];
  if (c == '*' || c == '?') {
    zero = true;
    ++i;
  } else if (c == '+') {
    ++i;
  } else if (c == '{') {
    // {n}, {n,}, {n,m}; anything else is a literal brace in JavaScript's Annex B, which we
    // treat as the end of the run rather than guess.
    size_t j = i + 1;
    size_t digits = 0;
    int minimum = 0;
    while (j < source.size() && source[j] >= '0' && source[j] <= '9') {
      minimum = minimum * 10 + (source[j] - '0');
      if (minimum > 1000) minimum = 1000;
      ++j;
      ++digits;
    }
    if (digits == 0) return false;
    if (j < source.size() && source[j] == ',') {
      ++j;
      while (j < source.size() && source[j] >= '0' && source[j] <= '9') ++j;
    }
    if (j >= source.size() || source[j] != '}') return false;
    i = j + 1;
    zero = minimum == 0;
  } else {
    return false;
  }
  quantified = true;
  if (i < source.size() && source[i] == '?') ++i;  // lazy
  return zero;
}

// Skips a group or class starting at `i` (which holds '(' or '['). False when unbalanced.
bool skip_bracketed(std::string_view source, size_t& i) {
  int depth = 0;
  bool in_class = false;
  for (; i < source.size(); ++i) {
    const char c = source[i];
    if (c == '\\') {
      ++i;
      continue;
    }
    if (in_class) {
      if (c == ']') {
        in_class = false;
        if (depth == 0) {
          ++i;
          return true;
        }
      }
      continue;
    }
    if (c == '[') {
      in_class = true;
    } else if (c == '(') {
      ++depth;
    } else if (c == ')') {
      if (--depth == 0) {
        ++i;
        return true;
      }
    }
  }
  return false;
}

}  // namespace

std::optional<RegexHead> regex_head(std::string_view pattern) {
  if (!pattern.starts_with('^')) return std::nullopt;
  for (char c : pattern) {
    if (c < 0x20 || c > 0x7E || c == '|') return std::nullopt;
  }
  RegexHead head;
  size_t at = 1;
  while (at < pattern.size()) {
    const char c = pattern[at];
    if (c == '\\') {
      // Escaped punctuation is itself; an escaped letter or digit is a class, an assertion, a
      // back-reference or a code: the literal ends.
      if (at + 1 < pattern.size() && is_escaped_literal(pattern[at + 1])) {
        head.literal += pattern[at + 1];
        at += 2;
        continue;
      }
      break;
    }
    if (!is_plain(c)) break;
    head.literal += c;
    ++at;
  }
  if (at < pattern.size()) {
    const char next = pattern[at];
    // A quantifier applies to the last literal character, which may then be absent.
    if ((next == '*' || next == '+' || next == '?' || next == '{') && !head.literal.empty()) {
      head.literal.pop_back();
    } else if (next == '$' && at + 1 == pattern.size()) {
      head.whole = true;
    }
  }
  if (head.literal.empty()) return std::nullopt;
  return head;
}

std::string regex_required_literal(std::string_view source, bool caseless) {
  std::string required;
  // Alternation anywhere (even inside a group, which may be the whole pattern) is left alone.
  bool escaped = false;
  bool in_class = false;
  for (char c : source) {
    if (escaped) {
      escaped = false;
    } else if (c == '\\') {
      escaped = true;
    } else if (in_class) {
      in_class = c != ']';
    } else if (c == '[') {
      in_class = true;
    } else if (c == '|') {
      return required;
    }
  }

  size_t i = !source.empty() && source[0] == '^' ? 1 : 0;
  std::string run;
  auto end_run = [&] {
    if (run.size() > required.size()) required = run;
    run.clear();
  };
  while (i < source.size()) {
    const char c = source[i];
    char literal = 0;
    if (c == '\\' && i + 1 < source.size() && is_escaped_literal(source[i + 1])) {
      literal = source[i + 1];
      i += 2;
    } else if (is_plain(c)) {
      literal = c;
      ++i;
    } else if (c == '(' || c == '[') {
      end_run();
      if (!skip_bracketed(source, i)) return {};
      bool quantified = false;
      skip_quantifier(source, i, quantified);
      continue;
    } else {
      // '.', '$', '^' mid-pattern, '\d' and other escapes, a stray quantifier: not a literal.
      end_run();
      ++i;
      if (c == '\\' && i < source.size()) ++i;
      bool quantified = false;
      skip_quantifier(source, i, quantified);
      continue;
    }

    bool quantified = false;
    const bool optional = skip_quantifier(source, i, quantified);
    if (caseless && risky_when_caseless(literal)) {
      end_run();
      continue;
    }
    if (optional) {
      end_run();
      continue;
    }
    run += ascii::lower(literal);
    // x+ or x{2,}: one x is certain, but what follows is not adjacent to the run.
    if (quantified) end_run();
  }
  end_run();
  return required;
}

}  // namespace rift
