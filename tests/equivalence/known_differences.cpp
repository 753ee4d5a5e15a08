#include "tests/equivalence/known_differences.h"

namespace rift::equivalence {

// No difference is known at present. The three the tester found first (several keys folding to
// `method`, non-ASCII dispatch values, a throwing predicate before the dispatch key) are fixed
// in compiler/planner.cpp and pinned by regressions_test.cpp. A newly found difference that
// cannot be fixed at once is listed here with a rewrite that neutralizes exactly its cause.
std::optional<std::string> known_difference(const Tier&, const Case&) {
  return std::nullopt;
}

}  // namespace rift::equivalence
