// The registry of matcher tiers the equivalence tester checks against the reference scan.
//
// Each tier is a factory from a stub list to a Matcher. A compiled tier (JIT, AOT) plugs in as
// one more entry here and every generated (stub list, request) pair is then checked against it
// too, with no change to the tester.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "compiler/errors.h"
#include "compiler/interpreter.h"
#include "compiler/matcher.h"
#include "compiler/plan.h"

namespace rift::equivalence {

// A stub list either compiles into a matcher or fails creation with Mountebank's error.
using Built = std::variant<std::unique_ptr<Matcher>, MbError>;
using TierFactory = std::function<Built(const std::vector<ir::Stub>&)>;

struct Tier {
  std::string name;
  TierFactory build;
};

inline Built build_interpreter(const std::vector<ir::Stub>& stubs) {
  auto tree = plan::build(stubs);
  if (auto* error = std::get_if<MbError>(&tree)) return *error;
  return std::make_unique<Interpreter>(std::get<std::shared_ptr<const plan::Tree>>(tree));
}

// Every tier under test. Add the JIT and AOT tiers here when they land.
inline std::vector<Tier> tiers() {
  return {Tier{"interpreter", &build_interpreter}};
}

}  // namespace rift::equivalence
