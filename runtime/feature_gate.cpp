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

}  // namespace

MbErrors unsupported_at_creation(const ir::Imposter& imposter) {
  MbErrors errors;
  if (imposter.protocol == "https") {
    errors.push_back(bad_data("the https protocol is not yet supported"));
  }
  return errors;
}

std::optional<MbError> unsupported_response(const ir::Response& response) {
  if (response.kind == ir::ResponseKind::kProxy) {
    return MbError{"invalid proxy", "proxy responses are not supported yet by Rift", std::nullopt};
  }
  // inject, decorate and wait (numbers and functions) are served (runtime/scripted_response).
  for (const ir::Behavior& behavior : response.behaviors) {
    if (behavior.kind == ir::BehaviorKind::kWait || behavior.kind == ir::BehaviorKind::kDecorate) {
      continue;
    }
    return MbError{"bad data",
                   std::string("the ") + behavior_name(behavior.kind) +
                       " behavior is not supported yet by Rift",
                   std::nullopt};
  }
  return std::nullopt;
}

}  // namespace rift
