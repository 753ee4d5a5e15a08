#include "runtime/imposter/scenario_reader.h"

namespace rift {

using flow_state::StoreError;

std::variant<std::string, StoreError> scenario_state_of(const std::optional<ir::Json>& stored,
                                                        std::string_view flow,
                                                        std::string_view scenario) {
  if (!stored) return std::string(kInitialScenarioState);
  if (stored->is_string()) return stored->get<std::string>();
  return StoreError{
      StoreError::Kind::kBadValue,
      "scenario state for " + std::string(flow) + "/" + std::string(scenario) +
          " is not a string: " + stored->dump(-1, ' ', false, ir::Json::error_handler_t::replace)};
}

std::optional<std::string> ScenarioReader::state(std::string_view scenario) {
  for (const auto& [name, state] : read_) {
    if (name == scenario) return state;
  }
  if (error_) return std::nullopt;
  auto stored = store_.get(flow_, scenario);
  if (auto* failed = std::get_if<StoreError>(&stored)) {
    error_ = std::move(*failed);
    return std::nullopt;
  }
  auto state = scenario_state_of(std::get<std::optional<ir::Json>>(stored), flow_, scenario);
  if (auto* bad = std::get_if<StoreError>(&state)) {
    error_ = std::move(*bad);
    return std::nullopt;
  }
  read_.emplace_back(std::string(scenario), std::get<std::string>(state));
  return read_.back().second;
}

std::optional<StoreError> ScenarioReader::advance(const ir::Stub& stub) {
  if (!stub.new_scenario_state) return std::nullopt;
  const std::string& name = stub.scenario_name ? *stub.scenario_name : std::string();
  const ir::Json next(*stub.new_scenario_state);
  if (!stub.required_scenario_state) {
    auto written = store_.set(flow_, name, next);
    if (auto* failed = std::get_if<StoreError>(&written)) return *failed;
    return std::nullopt;
  }
  const std::string& required = *stub.required_scenario_state;
  auto swapped = store_.compare_and_set(flow_, name, ir::Json(required), next);
  // The initial state is also the absence of one.
  if (auto* done = std::get_if<bool>(&swapped);
      done && !*done && required == kInitialScenarioState) {
    swapped = store_.compare_and_set(flow_, name, std::nullopt, next);
  }
  if (auto* failed = std::get_if<StoreError>(&swapped)) return *failed;
  return std::nullopt;
}

}  // namespace rift
