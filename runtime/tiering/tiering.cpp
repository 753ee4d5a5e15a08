#include "runtime/tiering/tiering.h"

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace rift {

Tiering::Tiering(CompilerFactory make_compiler, TieringSettings settings, Report report_failure)
    : make_compiler_(std::move(make_compiler)),
      settings_(settings),
      report_failure_(std::move(report_failure)),
      thread_([this] { run(); }) {}

Tiering::~Tiering() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void Tiering::request(const std::shared_ptr<TierTarget>& imposter) {
  const auto now = std::chrono::steady_clock::now();
  {
    std::lock_guard lock(mutex_);
    auto [entry, fresh] = pending_.try_emplace(imposter.get(), Pending{imposter, now, now});
    if (fresh) {
      entry->second.backoff = remembered_backoff(imposter);
    } else {
      entry->second.imposter = imposter;  // the same address may be a new imposter
      entry->second.last = now;
    }
  }
  wake_.notify_all();
}

Tiering::Clock::duration Tiering::remembered_backoff(const std::shared_ptr<TierTarget>& imposter) {
  auto found = history_.find(imposter.get());
  if (found == history_.end()) return {};
  if (found->second.imposter.lock() != imposter) {
    history_.erase(found);
    return {};
  }
  return std::min<Clock::duration>(found->second.compile_time, settings_.max_backoff);
}

void Tiering::drain() {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [&] { return stopping_ || (pending_.empty() && !busy_); });
}

namespace {

// LLVM installs its signal handlers from the first thread that needs them (this one: Clang runs
// here) and swaps that thread's alternate signal stack for one it allocated. The thread's own
// runtime (ASan's, notably) unmaps whatever alternate stack is current when the thread exits, so
// the original is put back on the way out; LLVM's stays allocated for the life of the process.
class AltStackRestorer {
 public:
  AltStackRestorer() { saved_ = sigaltstack(nullptr, &original_) == 0; }
  ~AltStackRestorer() {
    if (saved_) sigaltstack(&original_, nullptr);
  }
  AltStackRestorer(const AltStackRestorer&) = delete;
  AltStackRestorer& operator=(const AltStackRestorer&) = delete;

 private:
  stack_t original_{};
  bool saved_ = false;
};

}  // namespace

void Tiering::run() {
  const AltStackRestorer alt_stack;
  // Per-thread on Linux: only this thread yields to the workers.
  setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), settings_.nice);
  auto made = make_compiler_();
  if (auto* error = std::get_if<std::string>(&made)) {
    record_failure("cannot JIT, the interpreter serves: " + *error);
  } else {
    compiler_ = std::get<std::unique_ptr<TierCompiler>>(std::move(made));
  }
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
    if (stopping_) break;
    // The burst that is due first.
    auto chosen = pending_.begin();
    auto earliest = Clock::time_point::max();
    for (auto it = pending_.begin(); it != pending_.end(); ++it) {
      const auto when = due(it->second);
      if (when < earliest) {
        earliest = when;
        chosen = it;
      }
    }
    if (earliest > Clock::now()) {
      wake_.wait_until(lock, earliest);
      continue;
    }
    const TierTarget* key = chosen->first;
    std::shared_ptr<TierTarget> imposter = chosen->second.imposter.lock();
    pending_.erase(chosen);
    busy_ = true;
    lock.unlock();
    std::optional<Compiled> compiled;
    if (imposter && compiler_) compiled = compile(imposter);
    if (compiler_) compiler_->collect();
    const std::weak_ptr<TierTarget> compiled_imposter = imposter;
    imposter.reset();  // a deleted imposter is freed here, outside the lock
    lock.lock();
    busy_ = false;
    if (compiled) {
      history_[key] = History{compiled_imposter, compiled->took};
      // The edit that overtook it has queued the imposter again (only this thread erases).
      auto again = pending_.find(key);
      if (compiled->overtaken && again != pending_.end()) {
        again->second.backoff = std::min<Clock::duration>(compiled->took, settings_.max_backoff);
      }
    }
    std::erase_if(history_, [](const auto& entry) { return entry.second.imposter.expired(); });
    if (pending_.empty()) idle_.notify_all();
  }
  idle_.notify_all();
}

Tiering::Clock::time_point Tiering::due(const Pending& pending) const {
  if (pending.backoff > Clock::duration::zero()) {
    return pending.last + std::max<Clock::duration>(settings_.quiet, pending.backoff);
  }
  return std::min(pending.last + settings_.quiet, pending.first + settings_.max_delay);
}

std::optional<Tiering::Compiled> Tiering::compile(const std::shared_ptr<TierTarget>& imposter) {
  const auto plan = imposter->interpreted_plan();
  if (!plan) return std::nullopt;  // already compiled
  metrics_.compiles.fetch_add(1, std::memory_order_relaxed);
  const auto start = Clock::now();
  auto result = compiler_->compile(*plan->config, plan->tree);
  const auto took = Clock::now() - start;
  const std::chrono::duration<double> elapsed = took;
  metrics_.compile_duration.observe(elapsed.count());
  if (auto* error = std::get_if<std::string>(&result)) {
    record_failure(imposter->tier_label() +
                   " compile failed, the interpreter keeps serving: " + *error);
    return Compiled{took, false};
  }
  if (imposter->install_compiled(plan->version, std::get<CompiledTier>(std::move(result)),
                                 elapsed.count() * 1e3)) {
    metrics_.swaps.fetch_add(1, std::memory_order_relaxed);
    return Compiled{took, false};
  }
  metrics_.discarded.fetch_add(1, std::memory_order_relaxed);
  return Compiled{took, true};
}

void Tiering::record_failure(const std::string& error) {
  metrics_.failures.fetch_add(1, std::memory_order_relaxed);
  {
    std::lock_guard lock(metrics_.error_mutex);
    metrics_.last_error = error;
  }
  if (report_failure_) report_failure_(error);
}

std::string render_tiering_metrics(const TieringMetrics& metrics) {
  std::string out;
  auto counter = [&](const char* name, const char* help, const std::atomic<uint64_t>& value) {
    out.append("# HELP ").append(name).append(" ").append(help).append("\n");
    out.append("# TYPE ").append(name).append(" counter\n");
    out.append(name).append(" ").append(std::to_string(value.load(std::memory_order_relaxed)));
    out.append("\n\n");
  };
  counter("rift_jit_compiles_total", "Background compiles of a published plan", metrics.compiles);
  counter("rift_jit_swaps_total", "Compiled matchers swapped into service", metrics.swaps);
  counter("rift_jit_failures_total", "Compiles that failed; the interpreter kept serving",
          metrics.failures);
  counter("rift_jit_discarded_total", "Compiles finished after an edit had replaced their plan",
          metrics.discarded);
  out += "# HELP rift_jit_compile_duration_seconds Time from plan to loaded native code\n";
  out += "# TYPE rift_jit_compile_duration_seconds histogram\n";
  metrics.compile_duration.render(out, "rift_jit_compile_duration_seconds", "");
  out += "\n";
  return out;
}

}  // namespace rift
