// Native YAML config text to JSON. Plain scalars follow the YAML 1.2 core schema (null, booleans,
// integers and floats become JSON values); quoted and block scalars are always strings, so a
// YAML document and its JSON twin give equal trees.
#pragma once

#include <string_view>
#include <variant>
#include <vector>

#include "compiler/ir.h"

namespace rift::frontends {

struct YamlError {
  std::string message;
  int line = 0;  // 1-based
  int column = 0;
};

// One JSON value per YAML document in the stream (`---` separated).
std::variant<std::vector<ir::Json>, YamlError> yaml_documents_to_json(std::string_view text);

}  // namespace rift::frontends
