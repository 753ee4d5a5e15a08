// Seeded generators for the equivalence tester: stub lists drawn from a grammar that covers every
// predicate operator and modifier, and requests biased to hit or narrowly miss those stubs.
//
// Every value comes from one small vocabulary shared by all stubs, so the stubs of a list overlap
// heavily: many stubs can match one request, which is where a planner that dispatches instead of
// scanning can get first-match-wins wrong. Requests are built from a chosen stub's predicates
// (so they hit it) and then, more often than not, perturbed in one small way (so they narrowly
// miss it and fall through to a later stub, or to none).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "compiler/ir.h"
#include "compiler/request.h"

namespace rift::equivalence {

class StubGrammar {
 public:
  explicit StubGrammar(uint64_t seed) : random_(seed) {}

  // The mix of a stub list, in percent of stubs.
  struct Shape {
    int catch_all = 6;  // no predicates: matches everything, shadows every later stub
    int dispatch = 45;  // the first predicate is one the planner dispatches on (see below)
    int invalid = 2;    // per list: one predicate that fails creation (bad regex or xpath)
    int sibling = 30;   // a copy of an earlier stub with other query/header/body values
    // Body focus: this share of field predicates read a JSON or XML body (a jsonpath or xpath
    // selector, or an expected object or array), comparing what the selector finds in one of
    // the vocabulary's documents, and this share of requests carry such a document. 0 leaves
    // the random stream exactly as it was without the setting.
    int body_focus = 0;
    // This share of stubs lives in a space (docs/spaces.md), and every request then carries a
    // flow id: most often the space of the stub it aims at. 0 leaves the random stream as it
    // was without the setting.
    int spaced = 0;
    // This share of stubs is gated on a scenario's state (docs/scenarios.md), and requests then
    // carry their flow's states (see HeaderScenarioStates). 0 leaves the random stream as it was.
    int scenario = 0;
  };

  // A stub list of `count` stubs. A few carry an invalid regex or a malformed xpath selector,
  // so creation errors are compared too. `shape` stays in force for the requests that follow.
  std::vector<ir::Stub> stubs(int count, Shape shape);
  std::vector<ir::Stub> stubs(int count) { return stubs(count, Shape{}); }

  // A request aimed at one of `stubs` (or, now and then, at none of them).
  Request request(const std::vector<ir::Stub>& stubs);

  // Exposed for the generator's own tests.
  ir::Predicate predicate(int depth);
  // Makes `request` satisfy `predicate` as far as the generator knows how.
  void satisfy(const ir::Predicate& predicate, Request& request);
  // Changes one small thing about `request`: the case of a value, one character of the path,
  // a dropped header, an extra query value, a reordered JSON array, the method ...
  void perturb(Request& request);

 private:
  std::mt19937_64 random_;
  Shape shape_;

  size_t below(size_t bound) { return bound == 0 ? 0 : random_() % bound; }
  bool chance(int percent) { return static_cast<int>(random_() % 100) < percent; }
  template <typename T>
  const T& pick(const std::vector<T>& options) {
    return options[below(options.size())];
  }

  ir::Predicate field_predicate();
  // A predicate on a JSON or XML body (Shape::body_focus).
  ir::Predicate body_predicate();
  ir::Json selected_value(ir::Op op, const ir::Predicate& predicate, const std::string& document);
  // The shapes the planner files stubs under: method/path equals, path prefixes (startsWith,
  // `^literal` regexes), query/header values, JSON body fields (jsonpath or object form), now
  // and then inside an `and`.
  ir::Predicate dispatch_predicate();
  ir::Predicate routing_predicate();
  // A copy of `stub` with other values where it names query, header or body values: the
  // families of stubs (one path, one header, many values) that value indexes route.
  ir::Stub sibling(const ir::Stub& stub);
  void revalue(ir::Predicate& predicate);
  ir::Predicate invalid_predicate();
  ir::Json fields_for(ir::Op op, bool selector);
  ir::Json value_for(ir::Op op, const std::string& field);
  ir::Json key_values_for(ir::Op op, const std::vector<std::string>& keys);
  ir::Json body_for(ir::Op op);
  std::string scalar_for(ir::Op op, const std::vector<std::string>& words);
  std::string field_name(const std::string& name, bool case_sensitive);

  Request base_request();
  void satisfy_field(ir::Op op, const std::string& field, const ir::Json& value, bool fold,
                     Request& request);
  void satisfy_by_search(const ir::Predicate& predicate, bool want, Request& request);
  std::string realize(ir::Op op, const std::string& expected, bool fold);
  ir::Json realize_json(ir::Op op, const ir::Json& expected, bool fold);
  std::string vary_case(std::string text);
};

// True when `predicate` holds for `request` under the reference semantics (false on any error).
bool holds(const ir::Predicate& predicate, const Request& request);

}  // namespace rift::equivalence
