#include "runtime/imposter/plan_snapshot.h"

#include <algorithm>

namespace rift {

const PreparedResponse& StubPlan::answer(uint64_t n) const {
  const uint64_t position = n % cycle_ends.back();
  auto it = std::upper_bound(cycle_ends.begin(), cycle_ends.end(), position);
  return responses[static_cast<size_t>(it - cycle_ends.begin())];
}

const PreparedResponse& StubPlan::next() const {
  return answer(state->served.fetch_add(1, std::memory_order_relaxed));
}

const PreparedResponse& StubPlan::peek() const {
  return answer(state->served.load(std::memory_order_relaxed));
}

std::shared_ptr<const PlanSnapshot> with_matcher(const PlanSnapshot& snapshot,
                                                 std::unique_ptr<const Matcher> matcher,
                                                 double compile_ms, size_t code_bytes) {
  auto out = std::make_shared<PlanSnapshot>();
  out->version = snapshot.version;
  out->config = snapshot.config;  // PreparedResponse::response points into it: shared, not copied
  out->tree = snapshot.tree;
  out->matcher = std::move(matcher);
  out->tier = metrics::tier_of(out->matcher->tier());
  out->stubs = snapshot.stubs;  // shares each stub's StubState, so response cycles carry on
  out->no_match = snapshot.no_match;
  out->default_template = snapshot.default_template;
  out->scenarios = snapshot.scenarios;
  out->compile_ms = compile_ms;
  out->code_bytes = code_bytes;
  return out;
}

}  // namespace rift
