#include "runtime/behaviors/pipeline.h"

#include <atomic>
#include <charconv>
#include <string>

#include "runtime/behaviors/copy_step.h"
#include "runtime/behaviors/lookup_step.h"
#include "runtime/behaviors/shell_transform_step.h"
#include "runtime/behaviors/wait_step.h"

namespace rift::behaviors {
namespace {

// A wait given as a string that parseInt reads as a number; anything else is a JS function.
std::optional<std::chrono::milliseconds> numeric_wait(const ir::Json& config) {
  if (config.is_number()) {
    const auto ms = static_cast<int64_t>(config.get<double>());
    return std::chrono::milliseconds(ms > 0 ? ms : 0);
  }
  if (!config.is_string()) return std::chrono::milliseconds(0);
  const auto& text = config.get_ref<const std::string&>();
  if (text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  int64_t parsed = 0;
  std::from_chars(text.data(), text.data() + text.size(), parsed);
  return std::chrono::milliseconds(parsed);
}

// Stands for a behavior this build cannot run yet. The feature gate refuses such responses
// before they reach a pipeline, so this only keeps the pipeline total.
class RefusedStep final : public Step {
 public:
  explicit RefusedStep(std::string what) : what_(std::move(what)) {}
  void apply(const StepContext&, Flow, Next next) const override {
    next(MbError{"invalid injection", "the " + what_ + " behavior is not supported yet by Rift",
                 std::nullopt});
  }

 private:
  std::string what_;
};

std::unique_ptr<const Step> make_step(const ir::Behavior& behavior) {
  switch (behavior.kind) {
    case ir::BehaviorKind::kWait:
      if (auto delay = numeric_wait(behavior.config)) return std::make_unique<WaitStep>(*delay);
      // JavaScript plugs in here: a function `wait` returns the milliseconds to add.
      return std::make_unique<RefusedStep>("wait function");
    case ir::BehaviorKind::kCopy:
      return std::make_unique<CopyStep>(behavior.config);
    case ir::BehaviorKind::kLookup:
      return std::make_unique<LookupStep>(behavior.config);
    case ir::BehaviorKind::kShellTransform:
      return std::make_unique<ShellTransformStep>(
          behavior.config.is_string() ? behavior.config.get<std::string>() : std::string());
    case ir::BehaviorKind::kDecorate:
      // JavaScript plugs in here: decorate(config, response, logger) mutates or replaces
      // flow.response.
      return std::make_unique<RefusedStep>("decorate");
  }
  return std::make_unique<RefusedStep>("unknown");
}

}  // namespace

bool needs_pipeline(const ir::Response& response) {
  for (const ir::Behavior& behavior : response.behaviors) {
    if (behavior.kind != ir::BehaviorKind::kWait || !numeric_wait(behavior.config)) return true;
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
