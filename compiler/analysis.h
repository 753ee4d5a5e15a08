// Exact analysis of a stub list: stubs that can never answer because an earlier stub always
// answers first (shadowed), and stubs that repeat an earlier stub's predicates (duplicate).
//
// "Exact" means no false positives: a finding is reported only when it is proven. Stub j is
// shadowed by an earlier stub i when every request that satisfies j's predicates also satisfies
// i's. The proof is a conservative implication check (every predicate of i follows from j's
// predicates, by identity or a small set of sound rules over plain `equals` facts), so some real
// shadowing goes unreported, but nothing reported is wrong.
#pragma once

#include <string>
#include <vector>

#include "compiler/ir.h"

namespace rift::analysis {

struct Finding {
  enum class Kind { kShadowed, kDuplicate };
  Kind kind = Kind::kShadowed;
  int stub = -1;       // the stub that can never answer / that repeats another
  int by = -1;         // the earlier stub responsible
  std::string reason;  // human sentence naming both stubs and why
  bool operator==(const Finding&) const = default;
};

const char* kind_name(Finding::Kind kind);  // "shadowed" or "duplicate"

// A duplicate has the same predicates as an earlier stub, in any order (object keys in any
// order too, unless two of them fold together).
// Every finding, ordered by `stub`. A stub is reported at most once; a duplicate (also shadowed
// by definition) is reported as a duplicate. `by` is the lowest earlier stub that proves it.
std::vector<Finding> analyze(const std::vector<ir::Stub>& stubs);

}  // namespace rift::analysis
