#include "runtime/behaviors/wait_step.h"

#include <algorithm>
#include <random>

namespace rift::behaviors {

void WaitStep::apply(const StepContext&, Flow flow, Next next) const {
  flow.delay += delay_;
  next(std::move(flow));
}

void RangeWaitStep::apply(const StepContext&, Flow flow, Next next) const {
  // Per thread, so drawing takes no lock; a wait range is not part of what --seed reproduces.
  thread_local std::mt19937_64 generator{std::random_device{}()};
  std::uniform_int_distribution<int64_t> draw(min_.count(), std::max(min_, max_).count());
  flow.delay += std::chrono::milliseconds(draw(generator));
  next(std::move(flow));
}

}  // namespace rift::behaviors
