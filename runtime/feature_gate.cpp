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

MbErrors unsupported_at_creation(const ir::Imposter&) {
  return {};
}

std::optional<MbError> unsupported_response(const ir::Response& response) {
  // A fault runs no behaviors (spec 5.8), so none of theirs can be missing.
  if (response.kind == ir::ResponseKind::kFault) return std::nullopt;
  if (response.kind == ir::ResponseKind::kInject) {
    return MbError{"invalid injection",
                   "invalid response injection: JavaScript injection is not supported yet by Rift",
                   std::nullopt};
  }
  for (const ir::Behavior& behavior : response.behaviors) {
    if (behavior.kind == ir::BehaviorKind::kWait && !is_function_wait(behavior)) continue;
    if (behavior.kind == ir::BehaviorKind::kWait || behavior.kind == ir::BehaviorKind::kDecorate) {
      return MbError{"invalid injection",
                     std::string("the ") +
                         (is_function_wait(behavior) ? "wait function" : "decorate") +
                         " behavior is not supported yet by Rift",
                     std::nullopt};
    }
    return MbError{"bad data",
                   std::string("the ") + behavior_name(behavior.kind) +
                       " behavior is not supported yet by Rift",
                   std::nullopt};
  }
  return std::nullopt;
}

}  // namespace rift
