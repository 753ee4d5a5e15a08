#include "runtime/feature_gate.h"

namespace rift {
namespace {

const char* behavior_name(ir::BehaviorKind kind) {
  switch (kind) {
    case ir::BehaviorKind::kWait:
      return "wait";
    case ir::BehaviorKind::kCopy:
      return "copy";
    case ir::BehaviorKind::kLookup:
      return "lookup";
    case ir::BehaviorKind::kDecorate:
      return "decorate";
    case ir::BehaviorKind::kShellTransform:
      return "shellTransform";
  }
  return "?";
}

bool is_function_wait(const ir::Behavior& behavior) {
  return behavior.kind == ir::BehaviorKind::kWait && behavior.config.is_string() &&
         behavior.config.get_ref<const std::string&>().find_first_not_of("0123456789") !=
             std::string::npos;
}

}  // namespace

MbErrors unsupported_at_creation(const ir::Imposter& imposter) {
  MbErrors errors;
  if (imposter.protocol == "https") {
    errors.push_back(bad_data("the https protocol is not yet supported"));
  }
  return errors;
}

std::optional<MbError> unsupported_response(const ir::Response& response) {
  if (response.kind == ir::ResponseKind::kInject) {
    return MbError{"invalid injection",
                   "invalid response injection: JavaScript injection is not supported yet by Rift",
                   std::nullopt};
  }
  // copy, lookup and shellTransform run in runtime/behaviors; only JavaScript is missing.
  for (const ir::Behavior& behavior : response.behaviors) {
    if (is_function_wait(behavior) || behavior.kind == ir::BehaviorKind::kDecorate) {
      return MbError{"invalid injection",
                     std::string("the ") + behavior_name(behavior.kind) +
                         (is_function_wait(behavior) ? " function" : "") +
                         " behavior is not supported yet by Rift",
                     std::nullopt};
    }
  }
  return std::nullopt;
}

}  // namespace rift
