// The one interface every tier implements: which stub answers this request.
#pragma once

#include "compiler/predicate_eval.h"

namespace rift {

inline constexpr int kNoMatch = -1;

class Matcher {
 public:
  virtual ~Matcher() = default;
  // Index of the first stub whose predicates all hold, or kNoMatch. Throws EvalError where
  // Mountebank answers 500.
  virtual int match(RequestContext& context) const = 0;
  // "interpreter", "jit" or "aot": reported by GET /imposters/{port}/plan.
  virtual const char* tier() const = 0;
};

}  // namespace rift
