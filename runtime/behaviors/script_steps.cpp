#include "runtime/behaviors/script_steps.h"

namespace rift::behaviors {
namespace {

// The admin API refuses these behaviors without --allowInjection; a config that reached the
// pipeline anyway (riftc's frozen mock started without the flag) gets Mountebank's error.
MbError injection_not_allowed() {
  return MbError{"invalid injection",
                 "JavaScript injection is not allowed unless mb is run with the --allowInjection "
                 "flag",
                 std::nullopt};
}

}  // namespace

void DecorateStep::apply(const StepContext& context, Flow flow, Next next) const {
  if (!context.scripts) return next(injection_not_allowed());
  context.scripts->decorate(
      source_, *context.request, flow.response,
      [delay = flow.delay, next = std::move(next)](script::Result<ir::Json> answer) {
        if (auto* error = std::get_if<MbError>(&answer)) {
          return next(std::move(*error));
        }
        next(Flow{std::get<ir::Json>(std::move(answer)), delay});
      });
}

void FunctionWaitStep::apply(const StepContext& context, Flow flow, Next next) const {
  if (!context.scripts) return next(injection_not_allowed());
  context.scripts->wait(source_, [flow = std::move(flow), next = std::move(next)](
                                     script::Result<std::chrono::milliseconds> answer) mutable {
    if (auto* error = std::get_if<MbError>(&answer)) return next(std::move(*error));
    flow.delay += std::get<std::chrono::milliseconds>(answer);
    next(std::move(flow));
  });
}

}  // namespace rift::behaviors
