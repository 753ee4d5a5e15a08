#include "runtime/behaviors/pipeline.h"

#include <atomic>
#include <stdexcept>
#include <string>

#include "compiler/js_value.h"
#include "runtime/behaviors/copy_step.h"
#include "runtime/behaviors/lookup_step.h"
#include "runtime/behaviors/script_steps.h"
#include "runtime/behaviors/shell_transform_step.h"
#include "runtime/behaviors/wait_step.h"

namespace rift::behaviors {
namespace {

// The source Mountebank evaluates as `(${fn})(...)`.
std::string source_of(const ir::Json& config) {
  return js::to_string(config);
}

std::unique_ptr<const Step> make_step(const ir::Behavior& behavior) {
  switch (behavior.kind) {
    case ir::BehaviorKind::kWait:
      if (auto delay = wait_delay(behavior.config)) return std::make_unique<WaitStep>(*delay);
      if (behavior.config.is_object() && behavior.config.contains("inject")) {
        return std::make_unique<FunctionWaitStep>(source_of(behavior.config["inject"]));
      }
      if (behavior.config.is_object()) {
        const auto bound = [&](const char* key) {
          return std::chrono::milliseconds(behavior.config.value(key, int64_t{0}));
        };
        return std::make_unique<RangeWaitStep>(bound("min"), bound("max"));
      }
      return std::make_unique<FunctionWaitStep>(source_of(behavior.config));
    case ir::BehaviorKind::kCopy:
      return std::make_unique<CopyStep>(behavior.config);
    case ir::BehaviorKind::kLookup:
      return std::make_unique<LookupStep>(behavior.config);
    case ir::BehaviorKind::kShellTransform:
      return std::make_unique<ShellTransformStep>(
          behavior.config.is_string() ? behavior.config.get<std::string>() : std::string());
    case ir::BehaviorKind::kDecorate:
      return std::make_unique<DecorateStep>(source_of(behavior.config));
  }
  throw std::logic_error("unknown behavior kind");
}

}  // namespace

// Node runs a delay above 2**31 - 1 ms after 1 ms.
std::optional<std::chrono::milliseconds> wait_delay(const ir::Json& config) {
  const auto ms = js::parse_int(js::to_string(config));
  if (!ms) return std::nullopt;
  if (*ms > 2147483647.0) return std::chrono::milliseconds(1);
  return std::chrono::milliseconds(*ms > 0 ? static_cast<int64_t>(*ms) : 0);
}

bool needs_pipeline(const ir::Response& response) {
  for (const ir::Behavior& behavior : response.behaviors) {
    if (behavior.kind != ir::BehaviorKind::kWait || !wait_delay(behavior.config)) return true;
  }
  return false;
}

std::shared_ptr<const Pipeline> Pipeline::prepare(const std::vector<ir::Behavior>& behaviors) {
  std::vector<std::unique_ptr<const Step>> steps;
  steps.reserve(behaviors.size());
  for (const ir::Behavior& behavior : behaviors) steps.push_back(make_step(behavior));
  return std::make_shared<const Pipeline>(Passkey{}, std::move(steps));
}

void Pipeline::run(StepContext context, ir::Json response, Next done) const {
  run_from(0, std::move(context), Flow{std::move(response), {}}, std::move(done));
}

void Pipeline::run_from(size_t index, StepContext context, Flow flow, Next done) const {
  if (index == steps_.size()) {
    done(std::move(flow));
    return;
  }
  // The continuation keeps the pipeline alive: a step may finish after the plan was replaced.
  auto self = shared_from_this();
  auto continued = std::make_shared<std::atomic<bool>>(false);
  const StepContext& current = context;
  try {
    steps_[index]->apply(
        current, std::move(flow), [self, index, context, done, continued](Outcome outcome) mutable {
          continued->store(true);
          if (auto* next_flow = std::get_if<Flow>(&outcome)) {
            self->run_from(index + 1, std::move(context), std::move(*next_flow), std::move(done));
          } else {
            done(std::move(outcome));
          }
        });
  } catch (const std::exception& error) {
    // The step itself failed (say, JSON it cannot serialize): answer with a 500. An exception
    // from after the step handed over is not ours to answer twice.
    if (continued->load()) throw;
    done(MbError{"bad data", error.what(), std::nullopt});
  }
}

}  // namespace rift::behaviors
