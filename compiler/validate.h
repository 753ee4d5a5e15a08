// The creation-time dry run of a stub's predicates (docs/mountebank-semantics.md §2.3 step 4):
// every predicate is prepared and evaluated against Mountebank's empty request, and what would fail
// is reported as `bad data` (invalid regex, malformed xpath). Inject predicates count as true
// and never run.
#pragma once

#include <vector>

#include "compiler/errors.h"
#include "compiler/ir.h"
#include "compiler/predicate_eval.h"
#include "compiler/request.h"

namespace rift {

// The dry run's request and its per-request caches, made once and reused for every stub of an
// imposter: the request never changes, so what one stub's predicates cached (a folded field,
// the parsed empty body) holds for the next, and 10,000 stubs need not build 10,000 contexts.
class PredicateValidator {
 public:
  PredicateValidator();
  PredicateValidator(const PredicateValidator&) = delete;
  PredicateValidator& operator=(const PredicateValidator&) = delete;

  // The errors of `predicates`, in order (Mountebank evaluates every one, so each can report).
  MbErrors validate(const std::vector<ir::Predicate>& predicates);

 private:
  Request request_;  // before context_, which refers to it
  RequestContext context_;
};

// One stub with a validator of its own.
MbErrors validate_predicates(const ir::Stub& stub);

}  // namespace rift
