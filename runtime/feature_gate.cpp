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

MbErrors unsupported_at_creation(const ir::Imposter&) {
  return {};
}

std::optional<MbError> unsupported_response(const ir::Response& response) {
  // A fault runs no behaviors (spec 5.8), so none of theirs can be missing.
  if (response.kind == ir::ResponseKind::kFault) return std::nullopt;
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
