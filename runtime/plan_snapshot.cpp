#include "runtime/plan_snapshot.h"

#include <algorithm>

namespace rift {

const PreparedResponse& StubPlan::next() const {
  const uint64_t n = state->served.fetch_add(1, std::memory_order_relaxed);
  const uint64_t position = n % cycle_ends.back();
  auto it = std::upper_bound(cycle_ends.begin(), cycle_ends.end(), position);
  return responses[static_cast<size_t>(it - cycle_ends.begin())];
}

}  // namespace rift
