// What the runtime's background tiering asks of a compiled tier: native code for one
// imposter's planned stub list. The JIT implements it (codegen/jit/); tests substitute their own.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <variant>

#include "compiler/ir.h"
#include "compiler/matcher.h"
#include "compiler/plan.h"

namespace rift {

struct CompiledTier {
  std::unique_ptr<Matcher> matcher;  // owns its code: dropping it retires the code
  size_t code_bytes = 0;             // object code and tables, as loaded
};

class TierCompiler {
 public:
  virtual ~TierCompiler() = default;
  // The matcher for `config`'s stubs, planned into `tree`, or why there is none. Called from
  // one background thread at a time.
  virtual std::variant<CompiledTier, std::string> compile(
      const ir::Imposter& config, const std::shared_ptr<const plan::Tree>& tree) = 0;
  // Frees code no snapshot uses any more; called by the same thread between compiles.
  virtual void collect() {}
};

}  // namespace rift
