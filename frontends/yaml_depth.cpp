#include "frontends/yaml_depth.h"

#include <vector>

namespace rift::frontends {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t';
}

// Whether the line (its content from `from`) ends in a block scalar indicator: `|` or `>` with
// optional chomping and indentation digits, then only a comment.
bool opens_block_scalar(std::string_view line, std::size_t from) {
  std::size_t end = line.find(" #", from);
  if (end == std::string_view::npos) end = line.size();
  while (end > from && is_space(line[end - 1])) --end;
  std::size_t i = end;
  while (i > from &&
         (line[i - 1] == '-' || line[i - 1] == '+' || (line[i - 1] >= '0' && line[i - 1] <= '9'))) {
    --i;
  }
  if (i == from || (line[i - 1] != '|' && line[i - 1] != '>')) return false;
  return i - 1 == from || is_space(line[i - 2]);
}

}  // namespace

bool yaml_nesting_exceeds(std::string_view text, std::size_t limit) {
  std::vector<std::size_t> indents;  // the block levels open, by column
  std::size_t flow = 0;              // flow brackets open (they may span lines)
  std::size_t block_scalar_indent = std::string_view::npos;
  std::size_t position = 0;
  while (position <= text.size()) {
    std::size_t newline = text.find('\n', position);
    if (newline == std::string_view::npos) newline = text.size();
    const std::string_view line = text.substr(position, newline - position);
    position = newline + 1;

    std::size_t column = 0;
    while (column < line.size() && is_space(line[column])) ++column;
    if (column == line.size() || line[column] == '#') continue;  // blank or comment
    if (block_scalar_indent != std::string_view::npos) {
      if (column > block_scalar_indent) continue;  // the block scalar's text
      block_scalar_indent = std::string_view::npos;
    }
    if (flow == 0) {
      while (!indents.empty() && indents.back() > column) indents.pop_back();
      if (indents.empty() || indents.back() < column) indents.push_back(column);
    }
    std::size_t depth = indents.size() + flow;
    char quote = 0;
    for (std::size_t i = column; i < line.size(); ++i) {
      const char c = line[i];
      if (quote != 0) {
        if (c == quote) {
          if (quote == '\'' && i + 1 < line.size() && line[i + 1] == '\'') {
            ++i;  // '' inside a single-quoted scalar
          } else {
            quote = 0;
          }
        } else if (c == '\\' && quote == '"') {
          ++i;
        }
        continue;
      }
      const bool at_token = i == column || is_space(line[i - 1]) || line[i - 1] == '[' ||
                            line[i - 1] == '{' || line[i - 1] == ',';
      if ((c == '"' || c == '\'') && at_token) {
        quote = c;
      } else if (c == '#' && i > column && is_space(line[i - 1])) {
        break;
      } else if (c == '[' || c == '{') {
        ++flow;
        ++depth;
      } else if ((c == ']' || c == '}') && flow > 0) {
        --flow;
      } else if ((c == '-' || c == '?') && at_token &&
                 (i + 1 == line.size() || is_space(line[i + 1]))) {
        ++depth;  // an entry that opens a compact collection: `- - x`, `- a: 1`, `? - x`
      }
      if (depth > limit) return true;
    }
    if (flow == 0 && opens_block_scalar(line, column)) block_scalar_indent = column;
    if (newline == text.size()) break;
  }
  return false;
}

}  // namespace rift::frontends
