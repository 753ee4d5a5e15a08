// Mountebank predicate semantics (docs/mountebank-semantics.md §4), the reference every tier is
// checked against.
//
// A PreparedPredicate is an ir::Predicate with everything request-independent done once:
// regexes compiled, expected values normalized (case folding, `except`), selectors parsed.
// Evaluation reads the request through a RequestContext, which caches per-request work (the
// request's JSON form, the parsed JSON/XML body, each selector's result) so that many
// predicates on one request pay for it once.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <variant>

#include "compiler/errors.h"
#include "compiler/ir.h"
#include "compiler/predicate_injector.h"
#include "compiler/request.h"
#include "compiler/scenarios.h"

namespace rift {

// Raised while evaluating when Mountebank would answer 500 (e.g. an invalid regex that slipped
// past creation). Carries the error the imposter sends back.
class EvalError : public std::runtime_error {
 public:
  explicit EvalError(MbError error) : std::runtime_error(error.message), error_(std::move(error)) {}
  const MbError& error() const { return error_; }

 private:
  MbError error_;
};

class RequestContext {
 public:
  explicit RequestContext(const Request& request);
  ~RequestContext();
  RequestContext(const RequestContext&) = delete;
  RequestContext& operator=(const RequestContext&) = delete;

  const Request& request() const { return request_; }
  // The request model as JSON (to_json), built on first use.
  const ir::Json& json();

  // Runs `inject` predicates; null (riftc, unit tests without an engine): they fail with 500.
  void set_injector(const PredicateInjector* injector) { injector_ = injector; }
  const PredicateInjector* injector() const { return injector_; }

  // Where scenario gates read the flow's states; null (riftc, tests without one): every
  // scenario is in its initial state.
  void set_scenario_states(ScenarioStates* states) { scenario_states_ = states; }
  // The state a gate on `scenario` sees (nullopt: unknown, so no gate holds).
  std::optional<std::string> scenario_state(std::string_view scenario) const {
    if (!scenario_states_) return std::string(kInitialScenarioState);
    return scenario_states_->state(scenario);
  }

  // Slow paths only: every predicate is evaluated the plain way, on its own. Each reads its
  // fields generically from the request's JSON form (json()), parses a JSON text into a whole
  // tree with nlohmann's parser and an XML text into a whole libxml2 document, and shares
  // nothing with other predicates through the per-request caches: no plain-field shortcut, no
  // simdjson tape (json_stream), no SAX pass (xpath_stream), no tree parsed by another
  // predicate. Answers must not change; the equivalence tester's tier "interpreter, slow paths
  // only" checks the fast paths against this (docs/testing.md). Off by default; when off it
  // costs one test of this flag where a fast path is chosen.
  void set_slow_paths(bool on) { slow_paths_ = on; }
  bool slow_paths() const { return slow_paths_; }

  // Opaque per-request caches owned by the evaluator (parsed bodies, selector results).
  struct Caches;
  Caches& caches();

 private:
  const Request& request_;
  std::optional<ir::Json> json_;
  std::unique_ptr<Caches> caches_;
  const PredicateInjector* injector_ = nullptr;
  ScenarioStates* scenario_states_ = nullptr;
  bool slow_paths_ = false;
};

class PreparedPredicate {
 public:
  // Fails with `bad data` for an invalid regex (`matches`, `except`) or a malformed xpath
  // selector ("malformed xpath predicate selector"), naming the predicate as source.
  static std::variant<PreparedPredicate, MbError> prepare(const ir::Predicate& predicate);

  PreparedPredicate(PreparedPredicate&&) noexcept;
  PreparedPredicate& operator=(PreparedPredicate&&) noexcept;
  ~PreparedPredicate();

  // True when the request satisfies the predicate. Throws EvalError where Mountebank answers 500.
  // `inject` predicates run through the context's injector (EvalError without one).
  bool evaluate(RequestContext& context) const;

  const ir::Predicate& source() const;

  struct Impl;

 private:
  explicit PreparedPredicate(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace rift
