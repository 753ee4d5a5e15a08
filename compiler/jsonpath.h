// JSONPath-Plus (the dialect Mountebank uses) over parsed JSON (docs/mountebank-semantics.md §4.7).
//
// Supported: `$`, `.key`, `['key']`, `..key`, `[n]`, `[start:end:step]`, `[*]`, `.*`,
// `[a,b]`, `.length` on arrays, and filters `?(<expr>)` where expr combines `@`-paths,
// string/number/boolean/null literals with == != === !== < <= > >= && || ! and parentheses.
// A selector is parsed once and can be evaluated against many documents.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "compiler/ir.h"

namespace rift::jsonpath {

// The most work one selection may do: one unit per node visited, compared as text or copied
// into the result, and per 16 bytes of text printed or copied (about 32 MiB of results, some
// 30 ms of one core). `$..a..a..a` on a 200-level body would otherwise select over a million
// nodes, each a copy of a deep subtree. Found by a fuzzing probe; docs/limits.md.
inline constexpr std::size_t kMaxSelectionWork = std::size_t{1} << 21;

class Path {
 public:
  // Parses a selector; on failure returns a message.
  static std::variant<Path, std::string> parse(std::string_view selector);

  Path(Path&&) noexcept;
  Path& operator=(Path&&) noexcept;
  Path(const Path&);
  Path& operator=(const Path&);
  ~Path();

  // Every value the selector reaches, in document order (JSONPath-Plus `wrap: true`).
  // Empty when nothing matches, and when the selection would pass kMaxSelectionWork: to a
  // predicate, such a body is one the selector finds nothing in.
  std::vector<ir::Json> select(const ir::Json& document) const;

  // The same, but nullopt when the selection would pass kMaxSelectionWork, for the callers
  // that report it (behaviors, explain).
  std::optional<std::vector<ir::Json>> try_select(const ir::Json& document) const;

  // The property names of the selector's leading `.name` / `['name']` / `[n]` steps (each a
  // single name, not `..`): the part a streaming reader can follow without the whole tree
  // (compiler/json_stream.h). Empty for `$`, `$..x`, `$[*]` and the like.
  const std::vector<std::string>& leading_names() const;

  // try_select() of the steps from `first_segment` on, starting at `node` (what the first
  // `first_segment` steps reached). try_select(d) == select_from(d, 0), the work limit
  // included: leading name steps cost nothing, so following them elsewhere changes no answer.
  std::optional<std::vector<ir::Json>> select_from(const ir::Json& node,
                                                   std::size_t first_segment) const;

  const std::string& source() const;

  struct Impl;

 private:
  explicit Path(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Parses JSON text with simdjson, like JavaScript's JSON.parse: nullopt when the text is not
// JSON. Duplicate keys keep the last value (in the first key's position). Numbers become
// doubles, as in JavaScript. Every JsonParser uses its thread's simdjson parser
// (compiler/json_stream.h), so creating one per request costs nothing.
class JsonParser {
 public:
  std::optional<ir::Json> parse(std::string_view text);
};

// The same without a JsonParser object.
std::optional<ir::Json> parse_json(std::string_view text);

}  // namespace rift::jsonpath
