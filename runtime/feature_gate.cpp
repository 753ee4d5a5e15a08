#include "runtime/feature_gate.h"

namespace rift {
namespace {

bool uses_inject(const ir::Predicate& predicate) {
  if (predicate.op == ir::Op::kInject) return true;
  for (const auto& child : predicate.children) {
    if (uses_inject(child)) return true;
  }
  return false;
}

const char* behavior_name(ir::BehaviorKind kind) {
  switch (kind) {
    case ir::BehaviorKind::kWait: return "wait";
    case ir::BehaviorKind::kCopy: return "copy";
    case ir::BehaviorKind::kLookup: return "lookup";
    case ir::BehaviorKind::kDecorate: return "decorate";
    case ir::BehaviorKind::kShellTransform: return "shellTransform";
  }
  return "?";
}

MbError not_yet(const std::string& what, const ir::Json& source) {
  return MbError{"bad data", what + " not supported yet by Rift", source};
}

}  // namespace

MbErrors unsupported_features(const ir::Stub& stub) {
  MbErrors errors;
  for (const auto& predicate : stub.predicates) {
    if (uses_inject(predicate)) {
      errors.push_back(not_yet("inject predicates are", stub.source));
      break;
    }
  }
  for (const auto& response : stub.responses) {
    if (response.kind == ir::ResponseKind::kProxy) {
      errors.push_back(not_yet("proxy responses are", stub.source));
    } else if (response.kind == ir::ResponseKind::kInject) {
      errors.push_back(not_yet("inject responses are", stub.source));
    }
    for (const auto& behavior : response.behaviors) {
      const bool function_wait =
          behavior.kind == ir::BehaviorKind::kWait && behavior.config.is_string() &&
          behavior.config.get_ref<const std::string&>().find_first_not_of("0123456789") !=
              std::string::npos;
      if (behavior.kind != ir::BehaviorKind::kWait || function_wait) {
        errors.push_back(
            not_yet(std::string("the ") + behavior_name(behavior.kind) + " behavior is", stub.source));
      }
    }
  }
  return errors;
}

MbErrors unsupported_features(const ir::Imposter& imposter) {
  MbErrors errors;
  if (imposter.protocol == "https") {
    errors.push_back(bad_data("the https protocol is not yet supported"));
  }
  for (const auto& stub : imposter.stubs) {
    auto more = unsupported_features(stub);
    errors.insert(errors.end(), more.begin(), more.end());
  }
  return errors;
}

}  // namespace rift
