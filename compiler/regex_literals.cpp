#include "compiler/regex_literals.h"

#include "compiler/ascii.h"

namespace rift {
namespace {

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

RegexLiterals regex_literals(std::string_view source, bool caseless) {
  RegexLiterals out;
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
      return out;
    }
  }

  const bool anchored = !source.empty() && source[0] == '^';
  size_t i = anchored ? 1 : 0;
  std::string run;
  bool at_start = anchored;  // still reading the head
  auto end_run = [&] {
    if (at_start) out.head = run;
    at_start = false;
    if (run.size() > out.required.size()) out.required = run;
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
      if (!skip_bracketed(source, i)) return RegexLiterals{};
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
  return out;
}

}  // namespace rift
