// The path language of `{{request.json '<path>'}}` (docs/templates.md#functions): `$`, then
// `.key` and `[index]` steps. Not JSONPath: no wildcards, filters or recursive descent, as in the
// reference Rift.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "compiler/ir.h"

namespace rift::templates {

class JsonPath {
 public:
  static std::variant<JsonPath, std::string> parse(std::string_view text);
  // The value the path names in `document`, or why there is none.
  std::variant<const ir::Json*, std::string> find(const ir::Json& document) const;

 private:
  struct Step {
    std::string key;              // `.key`
    std::optional<size_t> index;  // `[index]`
  };
  std::vector<Step> steps_;
};

}  // namespace rift::templates
