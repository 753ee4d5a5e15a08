#include "frontends/upcast.h"

#include <array>

namespace rift::frontends {
namespace {

ir::Json single_key(const char* key, const ir::Json& value) {
  ir::Json object = ir::Json::object();
  object[key] = value;
  return object;
}

void upcast_shell_transform(ir::Json& response) {
  auto legacy = response.find("_behaviors");
  if (legacy == response.end() || !legacy->is_object()) return;
  auto shell = legacy->find("shellTransform");
  if (shell != legacy->end() && shell->is_string() &&
      !shell->get_ref<const std::string&>().empty()) {
    *shell = ir::Json::array({*shell});
  }
}

// Only responses that have neither `behaviors` nor `repeat` are converted; the others keep
// `_behaviors` verbatim (and Mountebank then ignores it).
bool can_upcast(const ir::Json& response) {
  if (response.contains("behaviors") || response.contains("repeat")) return false;
  auto legacy = response.find("_behaviors");
  return legacy != response.end() && (legacy->is_object() || legacy->is_array());
}

void upcast_behaviors(ir::Json& response) {
  const ir::Json legacy = response["_behaviors"];
  ir::Json behaviors = ir::Json::array();
  // The execution order of the old implementation, which the array now makes explicit.
  constexpr std::array<const char*, 5> kOrder = {"wait", "lookup", "copy", "shellTransform",
                                                 "decorate"};
  if (legacy.is_object()) {
    for (const char* key : kOrder) {
      auto value = legacy.find(key);
      if (value == legacy.end()) continue;
      if (value->is_array()) {
        for (const auto& element : *value) behaviors.push_back(single_key(key, element));
      } else {
        behaviors.push_back(single_key(key, *value));
      }
    }
  }
  response.erase("_behaviors");
  if (legacy.is_object() && legacy.contains("repeat")) response["repeat"] = legacy["repeat"];
  response["behaviors"] = std::move(behaviors);
}

}  // namespace

ir::Json upcast_stub(ir::Json stub) {
  ir::Json result = std::move(stub);
  if (!result.is_object()) return result;
  auto responses = result.find("responses");
  if (responses == result.end() || !responses->is_array()) return result;
  for (auto& response : *responses) {
    if (!response.is_object()) continue;
    upcast_shell_transform(response);
    if (can_upcast(response)) upcast_behaviors(response);
  }
  return result;
}

}  // namespace rift::frontends
