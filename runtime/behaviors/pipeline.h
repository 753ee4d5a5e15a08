// The behaviors of one response as a pipeline of steps, prepared once per plan (selectors
// compiled) and run per request (docs/mountebank-semantics.md §5.1 step 5: after the response is
// resolved, before defaultResponse is merged).
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "compiler/ir.h"
#include "runtime/behaviors/step.h"

namespace rift::behaviors {

// A `wait` behavior's delay as Mountebank reads it, `parseInt(millisecondsOrFn)`; nullopt when
// that is NaN, and the wait is a JavaScript function.
std::optional<std::chrono::milliseconds> wait_delay(const ir::Json& config);

// True when serving the response needs the pipeline: any behavior but a numeric `wait` (those
// alone are served as a plain delay on the pre-rendered bytes).
bool needs_pipeline(const ir::Response& response);

class Pipeline : public std::enable_shared_from_this<Pipeline> {
 public:
  static std::shared_ptr<const Pipeline> prepare(const std::vector<ir::Behavior>& behaviors);

  // Runs every step on `response` in order and calls `done` exactly once: with the final
  // response and the total delay, or with the first step's error. `done` may run on another
  // thread (a shell runner after shellTransform, the script engine after decorate or a wait
  // function).
  void run(StepContext context, ir::Json response, Next done) const;

  struct Passkey {};
  Pipeline(Passkey, std::vector<std::unique_ptr<const Step>> steps) : steps_(std::move(steps)) {}

 private:
  void run_from(size_t index, StepContext context, Flow flow, Next done) const;

  std::vector<std::unique_ptr<const Step>> steps_;
};

}  // namespace rift::behaviors
