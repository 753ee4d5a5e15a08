// The behaviors that call JavaScript (docs/mountebank-semantics.md §6.2): `decorate` and `wait`
// given as a function. Both hand the flow to the script engine and continue from its callback, on
// the engine thread, so no worker waits for a script.
#pragma once

#include <string>

#include "runtime/behaviors/step.h"

namespace rift::behaviors {

// decorate(config) mutates config.response, or returns the response to use instead.
class DecorateStep final : public Step {
 public:
  explicit DecorateStep(std::string source) : source_(std::move(source)) {}
  void apply(const StepContext& context, Flow flow, Next next) const override;

 private:
  std::string source_;
};

// The milliseconds the function returns are added to the response's delay.
class FunctionWaitStep final : public Step {
 public:
  explicit FunctionWaitStep(std::string source) : source_(std::move(source)) {}
  void apply(const StepContext& context, Flow flow, Next next) const override;

 private:
  std::string source_;
};

}  // namespace rift::behaviors
