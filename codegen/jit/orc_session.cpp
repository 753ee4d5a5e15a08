#include "codegen/jit/orc_session.h"

#include <dlfcn.h>
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

// The library this code is linked into, searched as a unit's symbols are resolved. In
// librift-jit (embed/) the JIT, the functions generated code calls (rift::compiled::lookup,
// Probe::values, ...) and the libstdc++ it loaded live in a library the host opened
// RTLD_LOCAL, which the process-wide search cannot see. In `rift` this is the JIT module, whose
// own search finds nothing the process search had not. Null when there is no such library.
std::unique_ptr<llvm::orc::DefinitionGenerator> own_library_generator(char prefix) {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&own_library_generator), &info) == 0 ||
      info.dli_fname == nullptr) {
    return nullptr;
  }
  // RTLD_NOLOAD: the library is loaded already (this code is in it); this only takes a handle,
  // which is never closed, like the library itself.
  void* handle = dlopen(info.dli_fname, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
  if (handle == nullptr) return nullptr;
  return std::make_unique<llvm::orc::DynamicLibrarySearchGenerator>(
      llvm::sys::DynamicLibrary(handle), prefix);
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
  if (auto own = own_library_generator(prefix))
    (*jit)->getMainJITDylib().addGenerator(std::move(own));
  // A unit that fails to materialise fails the lookup in load(), which says why to the tiering
  // (it logs the failure and the interpreter keeps serving). ORC's default reporter would also
  // print it to stderr, which in librift-jit belongs to the host.
  (*jit)->getExecutionSession().setErrorReporter(
      [](llvm::Error error) { llvm::consumeError(std::move(error)); });
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
