// One SpiderMonkey context with Mountebank's prelude loaded. Engine-thread only: a JSContext
// belongs to the thread that created it, and no JavaScript object ever leaves it (only strings).
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "runtime/base/logger.h"

struct JSContext;

namespace rift::script {

class JsRuntime {
 public:
  using LogSink = std::function<void(LogLevel, const std::string&)>;

  explicit JsRuntime(LogSink log);
  ~JsRuntime();
  JsRuntime(const JsRuntime&) = delete;
  JsRuntime& operator=(const JsRuntime&) = delete;

  // An argument of a prelude method: a string or a number.
  using Arg = std::variant<std::string_view, double>;

  // Calls prelude method `name`. Returns its result converted to a string, or nullopt when the
  // call was interrupted (interrupt()) or failed outside the prelude's own error handling.
  std::optional<std::string> call(const char* name, const std::vector<Arg>& args);
  // Runs queued promise jobs (then-callbacks) until none are left.
  void run_jobs();

  // Why `code` does not compile as a script (its SyntaxError and where), or nullopt. Nothing runs.
  std::optional<std::string> syntax_error(const std::string& code);

  // What __riftState(text) calls while a `_rift.script` runs (ctx.state); null between runs.
  using StateBridge = std::function<std::string(std::string_view)>;
  void set_state_bridge(const StateBridge* bridge) { state_bridge_ = bridge; }
  const StateBridge* state_bridge() const { return state_bridge_; }

  // Thread-safe: makes the JavaScript running now stop at its next interrupt check.
  void interrupt();
  // Engine thread: forget an interrupt that arrived after its call had already returned.
  void clear_interrupt() { interrupted_.store(false, std::memory_order_relaxed); }

  void log(LogLevel level, const std::string& message) const { log_(level, message); }
  bool interrupted() const { return interrupted_.load(std::memory_order_relaxed); }

 private:
  struct Roots;  // the global object and the prelude, kept alive across GCs
  struct ContextDeleter {
    void operator()(JSContext* context) const;
  };

  LogSink log_;
  std::unique_ptr<JSContext, ContextDeleter> context_;  // outlives roots_ (declared first)
  std::unique_ptr<Roots> roots_;
  std::atomic<bool> interrupted_{false};
  const StateBridge* state_bridge_ = nullptr;
};

}  // namespace rift::script
