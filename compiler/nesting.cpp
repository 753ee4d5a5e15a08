#include "compiler/nesting.h"

namespace rift::nesting {

std::string limit_message() {
  return "nesting deeper than " + std::to_string(kMaxDepth) + " levels";
}

bool json_exceeds(std::string_view text, std::size_t limit) {
  std::size_t depth = 0;
  bool just_opened = false;  // the last token opened an array or object
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped character, a quote included, does not end the string
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    const bool closes = c == ']' || c == '}';
    // As simdjson counts: a container is a level once it holds something, so `[]` innermost is
    // free and `[[1]]` is two levels.
    if (just_opened && !closes && depth > limit) return true;
    just_opened = false;
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      ++depth;
      just_opened = true;
    } else if (closes && depth > 0) {
      --depth;
    }
  }
  return false;
}

}  // namespace rift::nesting
