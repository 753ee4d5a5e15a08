// `wait` in milliseconds (a number, or a numeric string read with parseInt). Waits add up into
// one delay the connection serves before writing the reply: nothing a later step computes
// depends on when it ran, and no thread sleeps.
#pragma once

#include "runtime/behaviors/step.h"

namespace rift::behaviors {

class WaitStep final : public Step {
 public:
  explicit WaitStep(std::chrono::milliseconds delay) : delay_(delay) {}
  void apply(const StepContext& context, Flow flow, Next next) const override;

 private:
  std::chrono::milliseconds delay_;
};

// `wait: {"min", "max"}` (the reference Rift's spelling, also what a stub's `delayRange` becomes):
// a delay drawn uniformly from the range, both ends included, for each response.
class RangeWaitStep final : public Step {
 public:
  RangeWaitStep(std::chrono::milliseconds min, std::chrono::milliseconds max)
      : min_(min), max_(max) {}
  void apply(const StepContext& context, Flow flow, Next next) const override;

 private:
  std::chrono::milliseconds min_;
  std::chrono::milliseconds max_;
};

}  // namespace rift::behaviors
