// Turns a disagreement into a minimal reproduction: drops stubs, predicates, fields, modifiers
// and request parts for as long as the tier and the reference still disagree, then prints what
// is left as a Mountebank imposter body plus the request and both answers.
#pragma once

#include <string>
#include <vector>

#include "compiler/ir.h"
#include "compiler/request.h"
#include "tests/equivalence/tiers.h"

namespace rift::equivalence {

struct Case {
  std::vector<ir::Stub> stubs;
  Request request;
};

// True when `tier` and the reference scan answer `c` differently.
bool disagrees(const Tier& tier, const Case& c);

// A smaller case on which they still disagree (a fixed point of the simplifications).
Case shrink(const Tier& tier, Case c);

// {"stubs": [...Mountebank JSON...], "request": {...}, "reference": "...", "<tier>": "..."}
std::string reproduction(const Tier& tier, const Case& c);

}  // namespace rift::equivalence
