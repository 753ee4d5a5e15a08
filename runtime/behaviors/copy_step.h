// `copy` (docs/mountebank-semantics.md §6.2): select a value from the request and replace the
// `into` token with it throughout the response.
#pragma once

#include <string>

#include "runtime/behaviors/selection.h"
#include "runtime/behaviors/step.h"

namespace rift::behaviors {

class CopyStep final : public Step {
 public:
  // `config` is the validated {from, into, using} object.
  explicit CopyStep(const ir::Json& config);
  void apply(const StepContext& context, Flow flow, Next next) const override;

 private:
  ir::Json from_;
  std::string into_;
  Selector selector_;
};

}  // namespace rift::behaviors
