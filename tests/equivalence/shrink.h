// Turns a disagreement into a minimal reproduction: drops stubs, predicates, fields, modifiers
// and request parts (headers, query values, the form, members and elements of a JSON body) for
// as long as the tier and the reference (or another tier, its oracle) still disagree, then prints
// what is left as a Mountebank imposter body plus the request and the answers.
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

// The same with another tier as the oracle instead of the reference scan (the interpreter
// against its slow paths). The reproduction still shows the reference's answer too.
bool disagrees(const Tier& tier, const Tier& oracle, const Case& c);
Case shrink(const Tier& tier, const Tier& oracle, Case c);
std::string reproduction(const Tier& tier, const Tier& oracle, const Case& c);

}  // namespace rift::equivalence
