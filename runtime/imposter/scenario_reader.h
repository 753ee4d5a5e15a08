// One request's view of its flow's scenario states (docs/scenarios.md): what the gates read
// while matching, each scenario read from the flow store at most once, and the transition of
// the stub that answered.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "compiler/ir.h"
#include "compiler/scenarios.h"
#include "runtime/flow_state/flow_store.h"

namespace rift {

class ScenarioReader final : public ScenarioStates {
 public:
  ScenarioReader(flow_state::FlowStore& store, std::string_view flow)
      : store_(store), flow_(flow) {}

  std::optional<std::string> state(std::string_view scenario) override;

  // The first store failure a gate met: the request answers it instead of any match, since a
  // gate that could not be read may have hidden the stub that should have answered.
  const std::optional<flow_state::StoreError>& error() const { return error_; }

  // Moves the flow to `stub`'s newScenarioState, if it has one. From the state the stub required
  // by compare-and-set, so of two requests that matched in one state only one advances (the
  // other still gets its answer, as in the reference); without a required state, by a plain
  // write. A store failure is returned, for the request to answer instead of the stub.
  std::optional<flow_state::StoreError> advance(const ir::Stub& stub);

 private:
  flow_state::FlowStore& store_;
  std::string_view flow_;
  std::vector<std::pair<std::string, std::string>> read_;  // scenario -> state, this request's
  std::optional<flow_state::StoreError> error_;
};

// A scenario's state as stored: the initial state when absent, the text when a string,
// otherwise the error that says the stored value is not a state.
std::variant<std::string, flow_state::StoreError> scenario_state_of(
    const std::optional<ir::Json>& stored, std::string_view flow, std::string_view scenario);

}  // namespace rift
