// How an `inject` predicate reaches a JavaScript engine without the compiler depending on one.
//
// The runtime owns the engine and the per-imposter `state`; it lends an injector to each
// request's RequestContext. Every tier (interpreter, JIT, frozen AOT mock) runs residual
// predicates through PreparedPredicate::evaluate, so an `inject` leaf reaches the engine the same
// way on all of them, in Mountebank's first-match order.
#pragma once

#include <string>

#include "compiler/ir.h"

namespace rift {

class PredicateInjector {
 public:
  virtual ~PredicateInjector() = default;
  // Calls `source` as Mountebank does (docs/mountebank-semantics.md §4.9) on `request` (the request
  // model as JSON) and returns whether the result is truthy. Throws EvalError (`invalid injection`,
  // `invalid predicate injection`) when the function throws or exceeds the time limit. Blocks the
  // caller until the engine answers.
  virtual bool holds(const std::string& source, const ir::Json& request) const = 0;
};

}  // namespace rift
