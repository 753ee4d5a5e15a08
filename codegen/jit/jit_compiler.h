// The JIT tier: the C++ riftc would emit for an imposter, compiled in-process by Clang
// (cxx_to_ir.h) and loaded by ORC (orc_session.h), serving through the same CompiledMatcher
// as a frozen mock's AOT code.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <variant>

#include "codegen/tier_compiler.h"

namespace rift::jit {

class CxxToIr;
class OrcSession;

class JitCompiler final : public TierCompiler {
 public:
  // Fails (with Clang's or LLVM's words) when this machine cannot JIT: then `auto` serves on
  // the interpreter and `jit` refuses to start.
  static std::variant<std::unique_ptr<JitCompiler>, std::string> create();

  std::variant<CompiledTier, std::string> compile(
      const ir::Imposter& config, const std::shared_ptr<const plan::Tree>& tree) override;
  void collect() override;
  // Loaded units whose code has not been freed yet.
  size_t live_units() const;

  JitCompiler(std::unique_ptr<CxxToIr> front, std::shared_ptr<OrcSession> back);
  ~JitCompiler() override;

 private:
  std::unique_ptr<CxxToIr> front_;
  std::shared_ptr<OrcSession> back_;
  uint64_t units_ = 0;  // makes every unit's exported symbol unique within the session
};

// JitCompiler::create() as the runtime's Tiering::CompilerFactory wants it.
std::variant<std::unique_ptr<TierCompiler>, std::string> make_tier_compiler();

}  // namespace rift::jit
