#include "runtime/behaviors/wait_step.h"

namespace rift::behaviors {

void WaitStep::apply(const StepContext&, Flow flow, Next next) const {
  flow.delay += delay_;
  next(std::move(flow));
}

}  // namespace rift::behaviors
