// The JIT tier as a module loaded on demand. LLVM and Clang are most of what a JIT build maps
// (~60 MB resident once relocated at exec), so `rift` does not link them: the first time it
// needs the JIT (`--engine jit`, or `auto` starting its tiering) it dlopens librift-jit.so from
// its own directory. A server on `--engine interp` never maps them.
#pragma once

#include <memory>
#include <string>
#include <variant>

#include "codegen/tier_compiler.h"

namespace rift {

// The module's JIT compiler, or why there is none (module missing or broken, or the JIT cannot
// run here). The module stays loaded for the life of the process: code it compiled may be
// referenced until exit.
std::variant<std::unique_ptr<TierCompiler>, std::string> load_jit_module();

}  // namespace rift
