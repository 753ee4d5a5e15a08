// The one symbol rift looks up in librift-jit.so (runtime/tiering/jit_module.cpp): C linkage keeps
// the name stable; the signature is C++, since both sides are this build of Rift.
#include <memory>
#include <string>
#include <variant>

#include "codegen/jit/jit_compiler.h"

extern "C" void rift_jit_make_tier_compiler(
    std::variant<std::unique_ptr<rift::TierCompiler>, std::string>* made) {
  *made = rift::jit::make_tier_compiler();
}
