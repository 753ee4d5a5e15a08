#include "compiler/canonical_json.h"

#include <nlohmann/json.hpp>

namespace rift {

// nlohmann::json keeps objects in a std::map (ir::Json keeps insertion order), so reading the
// text back sorts every level.
std::string canonical_json(const ir::Json& value) {
  const auto replace = nlohmann::json::error_handler_t::replace;
  return nlohmann::json::parse(value.dump(-1, ' ', false, replace)).dump(-1, ' ', false, replace);
}

}  // namespace rift
