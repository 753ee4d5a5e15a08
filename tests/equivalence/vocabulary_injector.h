// Stands in for the JavaScript engine in the equivalence tester: answers the few `inject`
// sources of vocabulary::inject_sources() by their meaning, deterministically, so an `inject`
// leaf can be checked on every tier without running JavaScript.
#pragma once

#include "compiler/ascii.h"
#include "compiler/predicate_eval.h"
#include "compiler/predicate_injector.h"
#include "tests/equivalence/vocabulary.h"

namespace rift::equivalence {

class VocabularyInjector : public PredicateInjector {
 public:
  bool holds(const std::string& source, const ir::Json& request) const override {
    const auto& sources = vocabulary::inject_sources();
    if (source == sources[0]) return request.value("method", "") == "GET";
    if (source == sources[1]) return request.value("path", "").find('a') != std::string::npos;
    if (source == sources[2]) return false;
    throw EvalError(MbError{"invalid injection", "invalid predicate injection", source,
                            std::string("injected")});
  }
};

// Stateless, so one shared instance serves every context.
inline const PredicateInjector& vocabulary_injector() {
  static const VocabularyInjector injector;
  return injector;
}

// A generated request's flow's scenario states: each `X-Scenario: <name>=<state>` header (names
// compared byte for byte, the first wins) is one scenario's state; a scenario without one is in
// its initial state. The generator writes these headers, and perturbs them like any other.
class HeaderScenarioStates final : public ScenarioStates {
 public:
  explicit HeaderScenarioStates(const Request& request) : request_(request) {}
  std::optional<std::string> state(std::string_view scenario) override {
    for (const auto& [name, value] : request_.headers) {
      if (name.size() != 10 || !ascii::iequals(name, "X-Scenario")) continue;
      if (value.size() > scenario.size() && value.starts_with(scenario) &&
          value[scenario.size()] == '=') {
        return value.substr(scenario.size() + 1);
      }
    }
    return std::string(kInitialScenarioState);
  }

 private:
  const Request& request_;
};

}  // namespace rift::equivalence
