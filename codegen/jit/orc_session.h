// The JIT's back end, after LLVM's KaleidoscopeJIT: one LLJIT whose code resolves the runtime's
// symbols (compiled::lookup, Probe::values, libstdc++) in this process. Each loaded unit lives
// under its own ResourceTracker; dropping the last handle retires it, and the memory is freed
// by collect() on the compile thread, never on a worker that happened to drop the last reference.
#pragma once

#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace rift::jit {

class OrcSession;

// Native code for one unit. Holding it keeps the code mapped.
class LoadedUnit {
 public:
  LoadedUnit(std::shared_ptr<OrcSession> session, llvm::orc::ResourceTrackerSP tracker,
             const void* symbol, size_t object_bytes)
      : session_(std::move(session)),
        tracker_(std::move(tracker)),
        symbol_(symbol),
        object_bytes_(object_bytes) {}
  ~LoadedUnit();
  LoadedUnit(const LoadedUnit&) = delete;
  LoadedUnit& operator=(const LoadedUnit&) = delete;

  const void* symbol() const { return symbol_; }
  size_t object_bytes() const { return object_bytes_; }

 private:
  std::shared_ptr<OrcSession> session_;
  llvm::orc::ResourceTrackerSP tracker_;
  const void* symbol_;
  size_t object_bytes_;
};

class OrcSession : public std::enable_shared_from_this<OrcSession> {
 public:
  static std::variant<std::shared_ptr<OrcSession>, std::string> create();

  // Compiles `module` to native code (now, on this thread) and returns the address of `symbol`.
  std::variant<std::unique_ptr<LoadedUnit>, std::string> load(llvm::orc::ThreadSafeModule module,
                                                              std::string_view symbol);
  // Frees the code of every unit retired since the last call.
  void collect();
  // Units loaded and not yet freed (for tests and metrics).
  size_t live_units() const;

  explicit OrcSession(std::unique_ptr<llvm::orc::LLJIT> jit);
  ~OrcSession();

 private:
  friend class LoadedUnit;
  void retire(llvm::orc::ResourceTrackerSP tracker);

  std::unique_ptr<llvm::orc::LLJIT> jit_;
  std::mutex load_mutex_;         // one load at a time: last_object_bytes_ belongs to it
  size_t last_object_bytes_ = 0;  // set by the object transform during load()
  mutable std::mutex mutex_;      // guards the two below
  std::vector<llvm::orc::ResourceTrackerSP> retired_;
  size_t live_ = 0;
};

}  // namespace rift::jit
