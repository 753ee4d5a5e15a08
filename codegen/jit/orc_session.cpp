#include "codegen/jit/orc_session.h"

#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/ObjectTransformLayer.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>

namespace rift::jit {
namespace {

std::string message(llvm::Error error) {
  return llvm::toString(std::move(error));
}

// Every definition but `keep` becomes internal. ORC shares weak definitions across modules (the
// first loaded wins), so two units that both instantiate, say, std::vector<int>'s growth path
// would otherwise run the first unit's copy, and retiring that unit would free code the second
// still calls. Internal copies make each unit self-contained and safe to free on its own.
void internalize_all_but(llvm::Module& module, llvm::StringRef keep) {
  auto internalize = [&](llvm::GlobalValue& value) {
    if (value.isDeclaration() || value.getName() == keep) return;
    value.setLinkage(llvm::GlobalValue::InternalLinkage);
    value.setVisibility(llvm::GlobalValue::DefaultVisibility);
    if (auto* object = llvm::dyn_cast<llvm::GlobalObject>(&value)) object->setComdat(nullptr);
  };
  for (auto& function : module.functions()) internalize(function);
  for (auto& variable : module.globals()) internalize(variable);
  for (auto& alias : module.aliases()) internalize(alias);
  module.getComdatSymbolTable().clear();
}

}  // namespace

LoadedUnit::~LoadedUnit() {
  session_->retire(std::move(tracker_));
}

OrcSession::OrcSession(std::unique_ptr<llvm::orc::LLJIT> jit) : jit_(std::move(jit)) {}

OrcSession::~OrcSession() = default;

std::variant<std::shared_ptr<OrcSession>, std::string> OrcSession::create() {
  // Idempotent in LLVM; the targets are process-wide registries, not Rift state.
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto machine = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machine) return "cannot describe this CPU: " + message(machine.takeError());
  // The IR arrives optimised; instruction selection need not try as hard again.
  machine->setCodeGenOptLevel(llvm::CodeGenOptLevel::Less);
  auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*machine)).create();
  if (!jit) return "cannot start LLJIT: " + message(jit.takeError());
  const char prefix = (*jit)->getDataLayout().getGlobalPrefix();
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(prefix);
  if (!process) return "cannot resolve this process's symbols: " + message(process.takeError());
  (*jit)->getMainJITDylib().addGenerator(std::move(*process));
  auto session = std::make_shared<OrcSession>(std::move(*jit));
  // The object file's size is the unit's code size as reported by GET /imposters/:id/plan.
  OrcSession* raw = session.get();
  session->jit_->getObjTransformLayer().setTransform(
      [raw](std::unique_ptr<llvm::MemoryBuffer> object)
          -> llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> {
        raw->last_object_bytes_ = object->getBufferSize();
        return object;
      });
  return session;
}

std::variant<std::unique_ptr<LoadedUnit>, std::string> OrcSession::load(
    llvm::orc::ThreadSafeModule module, std::string_view symbol) {
  std::lock_guard load_lock(load_mutex_);
  const llvm::StringRef name(symbol.data(), symbol.size());
  module.withModuleDo([&](llvm::Module& m) { internalize_all_but(m, name); });
  auto tracker = jit_->getMainJITDylib().createResourceTracker();
  if (auto error = jit_->addIRModule(tracker, std::move(module))) return message(std::move(error));
  last_object_bytes_ = 0;
  auto address = jit_->lookup(name);
  if (!address) {
    std::string why = message(address.takeError());
    if (auto error = tracker->remove()) why += "; " + message(std::move(error));
    return why;
  }
  {
    std::lock_guard lock(mutex_);
    ++live_;
  }
  return std::make_unique<LoadedUnit>(shared_from_this(), std::move(tracker),
                                      address->toPtr<const void*>(), last_object_bytes_);
}

void OrcSession::retire(llvm::orc::ResourceTrackerSP tracker) {
  std::lock_guard lock(mutex_);
  retired_.push_back(std::move(tracker));
}

void OrcSession::collect() {
  std::vector<llvm::orc::ResourceTrackerSP> retired;
  {
    std::lock_guard lock(mutex_);
    retired.swap(retired_);
    live_ -= retired.size();
  }
  for (auto& tracker : retired) {
    // Removing can only fail if the session is already torn down; the memory goes with it.
    llvm::consumeError(tracker->remove());
  }
}

size_t OrcSession::live_units() const {
  std::lock_guard lock(mutex_);
  return live_;
}

}  // namespace rift::jit
