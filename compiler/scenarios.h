// Scenarios (docs/scenarios.md): a stub with `requiredScenarioState` matches only while its
// flow's scenario is in that state. The state is data outside the request (the flow store), so
// matchers read it through a ScenarioStates the server hands the request's context; the rule
// itself is the gate predicate (ir::Op::kScenario), evaluated like any other.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "compiler/ir.h"

namespace rift {

// Every scenario starts here, and reads so while its flow has no state stored.
inline constexpr std::string_view kInitialScenarioState = "Started";

// The gate a stub with `requiredScenarioState` puts first among its predicates.
inline ir::Predicate scenario_gate(const std::string& scenario, const std::string& required) {
  ir::Predicate gate;
  gate.op = ir::Op::kScenario;
  gate.fields = ir::Json{{"scenarioName", scenario}, {"requiredScenarioState", required}};
  return gate;
}

class ScenarioStates {
 public:
  virtual ~ScenarioStates() = default;
  // The request's flow's state of `scenario`, or nullopt when it cannot be known (the store
  // failed, or holds something that is not a state). Then no gate on it holds, and the server
  // answers the store's error instead of whatever matched.
  virtual std::optional<std::string> state(std::string_view scenario) = 0;
};

}  // namespace rift
