#include "runtime/script/engine.h"

#include <future>

#include "compiler/nesting.h"
#include "runtime/script/js_runtime.h"
#include "runtime/script/watchdog.h"

namespace rift::script {
namespace {

const char* kind_name(CallKind kind) {
  switch (kind) {
    case CallKind::kPredicate:
      return "predicate";
    case CallKind::kResponse:
      return "response";
    case CallKind::kDecorate:
      return "decorate";
    case CallKind::kWait:
      return "wait";
    case CallKind::kGenerator:
      return "generator";
    case CallKind::kEndOfRequest:
      return "endOfRequest";
  }
  return "?";
}

// Request bodies may hold bytes that are not UTF-8; JavaScript strings cannot, so they become
// U+FFFD, as Node's decoding does.
std::string to_text(const ir::Json& value) {
  return value.dump(-1, ' ', false, ir::Json::error_handler_t::replace);
}

ScriptError stopped() {
  return ScriptError{"the JavaScript engine has stopped"};
}

}  // namespace

Engine::Engine(EngineSettings settings)
    : settings_(std::move(settings)), thread_([this] { loop(); }) {}

Engine::~Engine() {
  {
    std::lock_guard lock(queue_->mutex);
    queue_->stopping = true;
  }
  queue_->wake.notify_one();
  thread_.join();
}

void EngineHandle::post(EngineJob job) const {
  {
    std::lock_guard lock(queue_->mutex);
    if (!queue_->stopping) {
      queue_->jobs.push_back(std::move(job));
      queue_->wake.notify_one();
      return;
    }
  }
  job.cancel();
}

uint64_t EngineHandle::open_imposter(const std::string& label) const {
  uint64_t id = 0;
  {
    std::lock_guard lock(queue_->mutex);
    id = queue_->next_imposter++;
  }
  post(EngineJob{[id, label](Engine& engine, JsRuntime& runtime) {
                   engine.guarded(runtime, "open", {static_cast<double>(id), label});
                 },
                 [] {}});
  return id;
}

void EngineHandle::close_imposter(uint64_t imposter) const {
  post(EngineJob{[imposter](Engine& engine, JsRuntime& runtime) {
                   engine.guarded(runtime, "close", {static_cast<double>(imposter)});
                 },
                 [] {}});
}

void EngineHandle::call(CallKind kind, uint64_t imposter, std::string source, ir::Json request,
                        ir::Json response, Done done) const {
  auto shared_done = std::make_shared<Done>(std::move(done));
  post(EngineJob{[kind, imposter, source = std::move(source), request = to_text(request),
                  response = kind == CallKind::kDecorate ? to_text(response) : std::string(),
                  shared_done](Engine& engine, JsRuntime& runtime) {
                   engine.run_call(runtime, kind, imposter, source, request, response,
                                   *shared_done);
                 },
                 [shared_done] { (*shared_done)(stopped()); }});
}

Outcome EngineHandle::call_and_wait(CallKind kind, uint64_t imposter, std::string source,
                                    ir::Json request) const {
  auto answer = std::make_shared<std::promise<Outcome>>();
  auto outcome = answer->get_future();
  call(kind, imposter, std::move(source), std::move(request), ir::Json(),
       [answer](Outcome result) { answer->set_value(std::move(result)); });
  return outcome.get();
}

void EngineHandle::run_script(ScriptRun run, Done done) const {
  auto shared_done = std::make_shared<Done>(std::move(done));
  auto shared_run = std::make_shared<ScriptRun>(std::move(run));
  post(EngineJob{[shared_run, shared_done](Engine& engine, JsRuntime& runtime) {
                   engine.run_script(runtime, *shared_run, *shared_done);
                 },
                 [shared_done] { (*shared_done)(stopped()); }});
}

std::optional<std::string> EngineHandle::syntax_error(std::string code) const {
  auto answer = std::make_shared<std::promise<std::optional<std::string>>>();
  auto result = answer->get_future();
  post(EngineJob{[answer, code = std::move(code)](Engine&, JsRuntime& runtime) {
                   answer->set_value(runtime.syntax_error(code));
                 },
                 [answer] { answer->set_value(stopped().message); }});
  return result.get();
}

std::optional<std::string> Engine::guarded(
    JsRuntime& runtime, const char* method,
    const std::vector<std::variant<std::string_view, double>>& args,
    std::optional<std::chrono::milliseconds> limit) {
  runtime.clear_interrupt();
  WatchdogScope scope(*watchdog_, limit.value_or(settings_.time_limit));
  auto result = runtime.call(method, args);
  runtime.run_jobs();  // promise reactions the call queued, under the same limit
  return result;
}

namespace {

// {"value":...} / {"error":"..."} / {"pending":true} from the prelude; nullopt while pending.
std::optional<Outcome> read_outcome(const std::string& text) {
  if (nesting::json_exceeds(text)) {
    return ScriptError{"the injection answered with " + nesting::limit_message()};
  }
  ir::Json parsed = ir::Json::parse(text, nullptr, false);
  if (!parsed.is_object()) return ScriptError{"the injection answered with something unreadable"};
  if (parsed.contains("pending")) return std::nullopt;
  if (auto error = parsed.find("error"); error != parsed.end()) {
    return ScriptError{error->is_string() ? error->get<std::string>() : error->dump()};
  }
  return Outcome(parsed.value("value", ir::Json()));
}

}  // namespace

void Engine::run_call(JsRuntime& runtime, CallKind kind, uint64_t imposter,
                      const std::string& source, const std::string& request,
                      const std::string& response, Done& done) {
  const uint64_t call_id = next_call_++;
  const auto deadline = std::chrono::steady_clock::now() + settings_.time_limit;
  auto text = guarded(runtime, "run",
                      {kind_name(kind), static_cast<double>(imposter), source, request, response,
                       static_cast<double>(call_id)});
  if (!text) {
    const bool timed_out = runtime.interrupted();
    guarded(runtime, "forget", {static_cast<double>(call_id)});
    done(ScriptError{timed_out ? "the function ran longer than the time limit of " +
                                     std::to_string(settings_.time_limit.count()) + " ms"
                               : "the JavaScript engine could not run the function"});
    return;
  }
  if (auto outcome = read_outcome(*text)) {
    done(std::move(*outcome));
    return;
  }
  pending_.push_back(Pending{call_id, deadline, std::move(done)});
}

void Engine::run_script(JsRuntime& runtime, ScriptRun& run, Done& done) {
  runtime.set_state_bridge(&run.state);
  const std::string ctx = to_text(run.ctx);
  auto text = guarded(runtime, "script", {static_cast<double>(run.imposter), run.code, ctx},
                      run.time_limit);
  runtime.set_state_bridge(nullptr);
  if (!text) {
    if (runtime.interrupted()) {
      done(ScriptError{
          "_rift.script timed out after " + std::to_string(run.time_limit.count()) + "ms", true});
    } else {
      done(ScriptError{"the JavaScript engine could not run the script"});
    }
    return;
  }
  auto outcome = read_outcome(*text);
  done(outcome ? std::move(*outcome) : Outcome(ScriptError{"the script did not answer"}));
}

std::optional<std::chrono::steady_clock::time_point> Engine::service(JsRuntime& runtime) {
  std::optional<std::chrono::steady_clock::time_point> wake_at;
  if (auto next_timer = guarded(runtime, "tick", {})) {
    const double ms = std::atof(next_timer->c_str());
    if (ms >= 0) {
      wake_at = std::chrono::steady_clock::now() +
                std::chrono::milliseconds(static_cast<int64_t>(ms) + 1);
    }
  }
  const auto now = std::chrono::steady_clock::now();
  std::deque<Pending> still_pending;
  while (!pending_.empty()) {
    Pending call = std::move(pending_.front());
    pending_.pop_front();
    auto text = guarded(runtime, "poll", {static_cast<double>(call.call_id)});
    std::optional<Outcome> outcome;
    if (!text) {
      outcome = ScriptError{"the JavaScript engine could not read the answer"};
    } else {
      outcome = read_outcome(*text);
    }
    if (!outcome && now >= call.deadline) {
      guarded(runtime, "forget", {static_cast<double>(call.call_id)});
      outcome = ScriptError{"the function did not answer within the time limit of " +
                            std::to_string(settings_.time_limit.count()) + " ms"};
    }
    if (outcome) {
      call.done(std::move(*outcome));
      continue;
    }
    if (!wake_at || call.deadline < *wake_at) wake_at = call.deadline;
    still_pending.push_back(std::move(call));
  }
  pending_ = std::move(still_pending);
  return wake_at;
}

void Engine::loop() {
  std::unique_ptr<JsRuntime> runtime;
  try {
    runtime = std::make_unique<JsRuntime>(settings_.log);
  } catch (const std::exception& error) {
    settings_.log(LogLevel::kError,
                  std::string("JavaScript injection is unavailable: ") + error.what());
  }
  Watchdog watchdog([&runtime] { runtime->interrupt(); });
  watchdog_ = &watchdog;

  std::optional<std::chrono::steady_clock::time_point> wake_at;
  for (;;) {
    std::deque<EngineJob> batch;
    bool stopping = false;
    {
      std::unique_lock lock(queue_->mutex);
      const auto ready = [this] { return queue_->stopping || !queue_->jobs.empty(); };
      if (wake_at) {
        queue_->wake.wait_until(lock, *wake_at, ready);
      } else {
        queue_->wake.wait(lock, ready);
      }
      batch.swap(queue_->jobs);
      stopping = queue_->stopping;
    }
    if (stopping || !runtime) {
      for (EngineJob& job : batch) job.cancel();
      if (stopping) break;
      continue;
    }
    for (EngineJob& job : batch) job.run(*this, *runtime);
    wake_at = service(*runtime);
  }
  for (Pending& call : pending_) call.done(stopped());
  pending_.clear();
  watchdog_ = nullptr;
}

}  // namespace rift::script
