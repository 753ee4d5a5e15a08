#include "runtime/flow_state/flow_store.h"

#include <nlohmann/json.hpp>

namespace rift::flow_state {

std::string canonical_text(const ir::Json& value) {
  // nlohmann::json keeps object members sorted; ir::Json keeps them in insertion order.
  return nlohmann::json::parse(value.dump(-1, ' ', false, ir::Json::error_handler_t::replace))
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace rift::flow_state
