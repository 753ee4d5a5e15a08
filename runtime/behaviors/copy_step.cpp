#include "runtime/behaviors/copy_step.h"

#include "runtime/behaviors/token_replace.h"

namespace rift::behaviors {
CopyStep::CopyStep(const ir::Json& config)
    : from_(config_member(config, "from")),
      into_(config_member(config, "into").is_string()
                ? config_member(config, "into").get<std::string>()
                : ""),
      selector_(config_member(config, "using")) {}

void CopyStep::apply(const StepContext& context, Flow flow, Next next) const {
  auto selected = selector_.select(select_field(*context.request, from_));
  if (auto* error = std::get_if<MbError>(&selected)) {
    next(std::move(*error));
    return;
  }
  replace_indexed(flow.response, into_, std::get<Selection>(selected));
  next(std::move(flow));
}

}  // namespace rift::behaviors
