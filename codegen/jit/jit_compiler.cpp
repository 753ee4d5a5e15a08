#include "codegen/jit/jit_compiler.h"

#include "codegen/compiled_matcher.h"
#include "codegen/emit_matcher.h"
#include "codegen/jit/cxx_to_ir.h"
#include "codegen/jit/orc_session.h"

namespace rift::jit {
namespace {

// A CompiledMatcher that owns the code it runs.
class JitMatcher final : public Matcher {
 public:
  JitMatcher(std::unique_ptr<LoadedUnit> unit, std::unique_ptr<Matcher> compiled)
      : unit_(std::move(unit)), compiled_(std::move(compiled)) {}
  int match(RequestContext& context) const override { return compiled_->match(context); }
  const char* tier() const override { return "jit"; }

 private:
  std::unique_ptr<LoadedUnit> unit_;  // declared first: destroyed after the matcher using it
  std::unique_ptr<Matcher> compiled_;
};

}  // namespace

JitCompiler::JitCompiler(std::unique_ptr<CxxToIr> front, std::shared_ptr<OrcSession> back)
    : front_(std::move(front)), back_(std::move(back)) {}

JitCompiler::~JitCompiler() = default;

std::variant<std::unique_ptr<JitCompiler>, std::string> JitCompiler::create() {
  auto back = OrcSession::create();
  if (auto* error = std::get_if<std::string>(&back)) return *error;
  auto front = CxxToIr::create();
  if (auto* error = std::get_if<std::string>(&front)) return *error;
  return std::make_unique<JitCompiler>(std::get<std::unique_ptr<CxxToIr>>(std::move(front)),
                                       std::get<std::shared_ptr<OrcSession>>(std::move(back)));
}

std::variant<CompiledTier, std::string> JitCompiler::compile(
    const ir::Imposter& config, const std::shared_ptr<const plan::Tree>& tree) {
  const int port = config.port.value_or(0);
  const std::string stem = "jit_" + std::to_string(port) + "_" + std::to_string(++units_);
  std::string label = "imposter " + std::to_string(port);
  if (config.name) label += " \"" + *config.name + "\"";
  codegen::EmitOptions options;
  options.re2c_max_keys = 0;  // no re2c at run time: every literal set becomes a table
  const auto emitted = codegen::emit_matcher(*tree, config.stubs, stem, port, label, options);

  auto module = front_->compile(emitted.source);
  if (auto* error = std::get_if<std::string>(&module)) return "compiling " + stem + ": " + *error;
  auto unit = back_->load(std::get<llvm::orc::ThreadSafeModule>(std::move(module)), emitted.symbol);
  if (auto* error = std::get_if<std::string>(&unit)) return "loading " + stem + ": " + *error;
  auto loaded = std::get<std::unique_ptr<LoadedUnit>>(std::move(unit));

  const auto& contract = *static_cast<const compiled::Module*>(loaded->symbol());
  auto bound = compiled::bind(contract, config.stubs, tree);
  if (auto* error = std::get_if<std::string>(&bound)) return "binding " + stem + ": " + *error;
  CompiledTier tier;
  tier.code_bytes = loaded->object_bytes();
  tier.matcher = std::make_unique<JitMatcher>(std::move(loaded),
                                              std::get<std::unique_ptr<Matcher>>(std::move(bound)));
  return tier;
}

std::variant<std::unique_ptr<TierCompiler>, std::string> make_tier_compiler() {
  auto made = JitCompiler::create();
  if (auto* error = std::get_if<std::string>(&made)) return *error;
  return std::unique_ptr<TierCompiler>(std::get<std::unique_ptr<JitCompiler>>(std::move(made)));
}

void JitCompiler::collect() {
  back_->collect();
}

size_t JitCompiler::live_units() const {
  return back_->live_units();
}

}  // namespace rift::jit
