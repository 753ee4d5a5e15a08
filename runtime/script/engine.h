// The script engine: one thread that owns one SpiderMonkey context and runs every injected
// function of every imposter, one job at a time.
//
// Why one thread: a JSContext is single-threaded and JavaScript objects cannot cross contexts,
// yet Mountebank's `state` is one object per imposter shared by predicate injection, response
// injection and decorate. Workers post jobs (function source, request and response as JSON) and
// get the outcome back through a callback, so a worker's event loop never waits for JavaScript,
// except for predicates (call_and_wait), which the matchers evaluate synchronously.
//
// Every call has a time limit: a watchdog interrupts a function that runs too long, and an
// asynchronous response (callback(), a promise, setTimeout) that has not answered by then fails.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "runtime/base/logger.h"
#include "runtime/script/outcome.h"

namespace rift::script {

class JsRuntime;
class Watchdog;

struct EngineSettings {
  std::chrono::milliseconds time_limit{10000};
  // Where logger.info() & co. write; the level is the JavaScript method called.
  std::function<void(LogLevel, const std::string&)> log = [](LogLevel, const std::string&) {};
};

class Engine;

// One run of a `_rift.script` (docs/scripts.md) for one request.
struct ScriptRun {
  uint64_t imposter = 0;
  std::string code;
  ir::Json ctx;  // {"request", "flowId", "stub"}: what the script sees as ctx
  // ctx.state and ctx.store.flow(id): each call as JSON text in, its answer as JSON text out
  // ({"value": ..., "present": ...} or {"error": ..., "type": ...}). Runs on the engine thread.
  std::function<std::string(std::string_view)> state;
  std::chrono::milliseconds time_limit{5000};
};

// A unit of work for the engine thread; `cancel` runs instead when the engine has stopped.
struct EngineJob {
  std::function<void(Engine&, JsRuntime&)> run;
  std::function<void()> cancel;
};

// The queue between the threads that post jobs and the engine thread.
struct EngineQueue {
  std::mutex mutex;
  std::condition_variable wake;
  std::deque<EngineJob> jobs;
  bool stopping = false;
  uint64_t next_imposter = 1;
};

// What imposters hold to reach the engine. It shares the queue, not the Engine, so it stays safe
// when an imposter is released after the engine has stopped (during shutdown, on any thread):
// calls then fail at once with "the JavaScript engine has stopped".
class EngineHandle {
 public:
  // A fresh `state` (and legacy injectState) for one imposter; `label` prefixes its log lines.
  uint64_t open_imposter(const std::string& label) const;
  void close_imposter(uint64_t imposter) const;

  // Runs `source` as a `kind` function for `imposter`. `done` gets the outcome on the engine
  // thread (or at once, when the engine has stopped). `response` is used by decorate only.
  void call(CallKind kind, uint64_t imposter, std::string source, ir::Json request,
            ir::Json response, Done done) const;
  // The same, blocking the calling thread until the outcome (at most about the time limit).
  // Never call it from the engine thread (from inside a Done).
  Outcome call_and_wait(CallKind kind, uint64_t imposter, std::string source,
                        ir::Json request) const;

  // Runs a `_rift.script`; `done` gets {"kind": "http"|"delay"|"reset"|"pass", ...} or the
  // error (its message is the reference's "Script error: ..." detail).
  void run_script(ScriptRun run, Done done) const;
  // Why `code` is not a script (its SyntaxError), or nullopt; blocks like call_and_wait.
  std::optional<std::string> syntax_error(std::string code) const;

 private:
  friend class Engine;
  explicit EngineHandle(std::shared_ptr<EngineQueue> queue) : queue_(std::move(queue)) {}
  void post(EngineJob job) const;

  std::shared_ptr<EngineQueue> queue_;
};

class Engine {
 public:
  explicit Engine(EngineSettings settings);
  // Fails the jobs still queued and the calls still waiting, then stops the thread.
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  EngineHandle handle() const { return EngineHandle(queue_); }

  // Shorthands for handle().<same>.
  uint64_t open_imposter(const std::string& label) { return handle().open_imposter(label); }
  void close_imposter(uint64_t imposter) { handle().close_imposter(imposter); }
  void call(CallKind kind, uint64_t imposter, std::string source, ir::Json request,
            ir::Json response, Done done) {
    handle().call(kind, imposter, std::move(source), std::move(request), std::move(response),
                  std::move(done));
  }
  Outcome call_and_wait(CallKind kind, uint64_t imposter, std::string source, ir::Json request) {
    return handle().call_and_wait(kind, imposter, std::move(source), std::move(request));
  }

  std::chrono::milliseconds time_limit() const { return settings_.time_limit; }

  // Engine thread only: what the jobs EngineHandle posts run.
  void run_call(JsRuntime& runtime, CallKind kind, uint64_t imposter, const std::string& source,
                const std::string& request, const std::string& response, Done& done);
  void run_script(JsRuntime& runtime, ScriptRun& run, Done& done);
  // Calls a prelude method under the time limit (the engine's, unless given), then drains
  // promise jobs.
  std::optional<std::string> guarded(
      JsRuntime& runtime, const char* method,
      const std::vector<std::variant<std::string_view, double>>& args,
      std::optional<std::chrono::milliseconds> limit = std::nullopt);

 private:
  struct Pending {
    uint64_t call_id;
    std::chrono::steady_clock::time_point deadline;
    Done done;
  };

  void loop();
  // Runs due timers and promise jobs, then answers the pending calls that settled or expired.
  // Returns when the next timer or deadline falls due.
  std::optional<std::chrono::steady_clock::time_point> service(JsRuntime& runtime);

  const EngineSettings settings_;
  const std::shared_ptr<EngineQueue> queue_ = std::make_shared<EngineQueue>();
  // Engine thread only.
  Watchdog* watchdog_ = nullptr;
  uint64_t next_call_ = 1;
  std::deque<Pending> pending_;
  std::thread thread_;  // last: starts after everything it reads
};

}  // namespace rift::script
