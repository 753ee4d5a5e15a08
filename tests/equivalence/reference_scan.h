// The reference every tier is checked against: Mountebank's stub selection written as plainly
// as possible. Every predicate of every stub is prepared at creation (the first failure, in stub
// order, is the creation error) and, per request, evaluated in stub order with short-circuit AND;
// the first stub whose predicates all hold wins. Stubs of another space than the request's flow
// id are skipped (docs/spaces.md).
//
// Each stub is evaluated with a RequestContext of its own, so the per-request caches a tier
// shares between all stubs cannot hide a cache-key collision across stubs. (A fresh context per
// predicate would be stricter still, but costs twice the run time under ASan.)
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compiler/errors.h"
#include "compiler/ir.h"
#include "compiler/matcher.h"
#include "compiler/predicate_eval.h"
#include "tests/equivalence/tiers.h"

namespace rift::equivalence {

// What one side answered for one request: a stub index (or kNoMatch), or an error. Errors are
// compared by their Mountebank JSON, so the same error must come from the same predicate.
struct Answer {
  int stub = kNoMatch;
  std::optional<std::string> creation_error;
  std::optional<std::string> evaluation_error;
  bool operator==(const Answer&) const = default;
};
std::string describe(const Answer& answer);

class ReferenceScan {
 public:
  explicit ReferenceScan(const std::vector<ir::Stub>& stubs);
  Answer answer(const Request& request) const;

 private:
  std::optional<std::string> creation_error_;
  std::vector<std::vector<PreparedPredicate>> stubs_;
  std::vector<std::optional<std::string>> spaces_;
};

// The answer of a built tier (or its creation error) for one request.
Answer answer_of(const Built& built, const Request& request);

}  // namespace rift::equivalence
