// The JIT's front end: generated C++ (the same text riftc writes) to an optimised LLVM module,
// with Clang as a library. The Module contract header is embedded in this binary and
// precompiled once, so each compile parses only the generated unit, never the standard library.
#pragma once

#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>

#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace rift::jit {

class CxxToIr {
 public:
  // Finds the host toolchain's headers and precompiles codegen/compiled_module.h; fails with
  // Clang's diagnostics if it cannot (no resource headers, no libstdc++ headers).
  static std::variant<std::unique_ptr<CxxToIr>, std::string> create();

  // `source` is one generated unit; errors carry Clang's diagnostics.
  std::variant<llvm::orc::ThreadSafeModule, std::string> compile(std::string_view source) const;

  CxxToIr(std::vector<std::string> cc1_args, std::string pch);

 private:
  std::vector<std::string> cc1_args_;  // everything but the input, as the driver computed it
  std::string pch_;                    // the precompiled contract header, in memory
};

}  // namespace rift::jit
