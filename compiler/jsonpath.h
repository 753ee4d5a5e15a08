// JSONPath-Plus (the dialect Mountebank uses) over parsed JSON (spec 4.7).
//
// Supported: `$`, `.key`, `['key']`, `..key`, `[n]`, `[start:end:step]`, `[*]`, `.*`,
// `[a,b]`, `.length` on arrays, and filters `?(<expr>)` where expr combines `@`-paths,
// string/number/boolean/null literals with == != === !== < <= > >= && || ! and parentheses.
// A selector is parsed once and can be evaluated against many documents.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "compiler/ir.h"

namespace rift::jsonpath {

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
  // Empty when nothing matches.
  std::vector<ir::Json> select(const ir::Json& document) const;

  const std::string& source() const;

  struct Impl;

 private:
  explicit Path(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Parses JSON text with simdjson, like JavaScript's JSON.parse: nullopt when the text is not
// JSON. Duplicate keys keep the last value (in the first key's position). Numbers become
// doubles, as in JavaScript.
class JsonParser {
 public:
  JsonParser();
  ~JsonParser();
  JsonParser(const JsonParser&) = delete;
  JsonParser& operator=(const JsonParser&) = delete;

  std::optional<ir::Json> parse(std::string_view text);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// One-shot convenience (allocates a parser per call).
std::optional<ir::Json> parse_json(std::string_view text);

}  // namespace rift::jsonpath
