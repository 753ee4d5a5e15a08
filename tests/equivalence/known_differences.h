// Differences between the planner and the reference scan that the tester found and that are
// reported but not yet fixed in compiler/planner.cpp (see regressions_test.cpp, one test each).
//
// A disagreement counts as known only when a rewrite that neutralizes exactly that cause (and
// leaves the reference's semantics alone, or removes only the stubs involved) makes the tier
// agree again; anything else still fails the tester. The regression tests fail as soon as the
// planner is fixed, so this list cannot go stale: delete the entry and its rewrite then.
#pragma once

#include <optional>
#include <string>

#include "tests/equivalence/shrink.h"
#include "tests/equivalence/tiers.h"

namespace rift::equivalence {

// The name of the known cause of `c`'s disagreement on `tier`, or nullopt when it is new.
std::optional<std::string> known_difference(const Tier& tier, const Case& c);

}  // namespace rift::equivalence
