#include "tests/equivalence/reference_scan.h"

#include "compiler/spaces.h"
#include "tests/equivalence/vocabulary_injector.h"

namespace rift::equivalence {

std::string describe(const Answer& answer) {
  if (answer.creation_error) return "creation error " + *answer.creation_error;
  if (answer.evaluation_error) return "evaluation error " + *answer.evaluation_error;
  if (answer.stub == kNoMatch) return "no match";
  return "stub " + std::to_string(answer.stub);
}

ReferenceScan::ReferenceScan(const std::vector<ir::Stub>& stubs) {
  for (const auto& stub : stubs) {
    spaces_.push_back(stub.space);
    auto& prepared = stubs_.emplace_back();
    for (const auto& predicate : stub.predicates) {
      auto result = PreparedPredicate::prepare(predicate);
      if (auto* error = std::get_if<MbError>(&result)) {
        creation_error_ = error->to_json().dump();
        return;
      }
      prepared.push_back(std::get<PreparedPredicate>(std::move(result)));
    }
  }
}

Answer ReferenceScan::answer(const Request& request) const {
  Answer out;
  if (creation_error_) {
    out.creation_error = creation_error_;
    return out;
  }
  try {
    for (size_t index = 0; index < stubs_.size(); ++index) {
      if (!visible_to(spaces_[index], request)) continue;
      bool all_hold = true;
      RequestContext context(request);  // fresh per stub: no caches shared across stubs
      context.set_injector(&vocabulary_injector());
      HeaderScenarioStates states(request);
      context.set_scenario_states(&states);
      for (const auto& predicate : stubs_[index]) {
        if (!predicate.evaluate(context)) {
          all_hold = false;
          break;
        }
      }
      if (all_hold) {
        out.stub = static_cast<int>(index);
        return out;
      }
    }
  } catch (const EvalError& error) {
    out.evaluation_error = error.error().to_json().dump();
  }
  return out;
}

Answer answer_of(const Built& built, const Request& request) {
  Answer out;
  if (auto* error = std::get_if<MbError>(&built)) {
    out.creation_error = error->to_json().dump();
    return out;
  }
  RequestContext context(request);
  context.set_injector(&vocabulary_injector());
  HeaderScenarioStates states(request);
  context.set_scenario_states(&states);
  try {
    out.stub = std::get<std::unique_ptr<Matcher>>(built)->match(context);
  } catch (const EvalError& error) {
    out.evaluation_error = error.error().to_json().dump();
  }
  return out;
}

}  // namespace rift::equivalence
