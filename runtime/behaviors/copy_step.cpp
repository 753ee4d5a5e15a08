#include "runtime/behaviors/copy_step.h"

#include "runtime/behaviors/token_replace.h"

namespace rift::behaviors {
namespace {

const ir::Json& member(const ir::Json& object, const char* name) {
  static const ir::Json kMissing;
  if (!object.is_object()) return kMissing;
  auto it = object.find(name);
  return it == object.end() ? kMissing : *it;
}

}  // namespace

CopyStep::CopyStep(const ir::Json& config)
    : from_(member(config, "from")),
      into_(member(config, "into").is_string() ? member(config, "into").get<std::string>() : ""),
      selector_(member(config, "using")) {}

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
