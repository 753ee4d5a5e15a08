// Background tiering: after an admin edit publishes a plan on the interpreter, one thread
// compiles the imposter's stubs with a compiled tier (the JIT) and swaps the result in, if the
// plan it compiled is still the one in service.
//
// Bursts of edits coalesce: an imposter is compiled only once its edits have paused for a few
// milliseconds (or have kept coming for long enough that waiting longer would starve it), and
// an edit that lands during a compile makes that compile's result stale and queues another.
// Once an imposter has been compiled, a new burst of its edits waits for them to pause for as
// long as that compile took (a compile that was overtaken, or the one that put its last plan in
// service): under steady edits a compile that cannot finish before the next edit is not
// started, and the interpreter serves without paying for doomed compiles.
// The thread runs at a lower priority than the workers, so under load a compile takes its time
// rather than the workers' CPU.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>

#include "codegen/tier_compiler.h"
#include "runtime/base/histogram.h"

namespace rift {

// What the tiering thread sees of an imposter (runtime/imposter/imposter.h implements it), so
// that tiering sits below the imposter and the two never include each other.
class TierTarget {
 public:
  struct Plan {
    uint64_t version = 0;
    std::shared_ptr<const ir::Imposter> config;
    std::shared_ptr<const plan::Tree> tree;
  };
  // The plan in service while the interpreter serves it; nothing once a compiled tier does.
  virtual std::optional<Plan> interpreted_plan() const = 0;
  // Puts `tier` into service if `version` is still the plan in service.
  virtual bool install_compiled(uint64_t version, CompiledTier tier, double compile_ms) = 0;
  // How a failure names the target in the log, e.g. "[http:4545]".
  virtual std::string tier_label() const = 0;

 protected:
  ~TierTarget() = default;
};

struct TieringMetrics {
  std::atomic<uint64_t> compiles{0};   // compiles attempted
  std::atomic<uint64_t> swaps{0};      // compiled matchers put into service
  std::atomic<uint64_t> failures{0};   // compiles that failed: the interpreter kept serving
  std::atomic<uint64_t> discarded{0};  // compiled for a plan an edit had already replaced
  Histogram<10> compile_duration{{0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1, 5, 30}};
  mutable std::mutex error_mutex;
  std::string last_error;  // the newest failure, for logs and GET /metrics readers
};

struct TieringSettings {
  // Edits closer together than this are one burst.
  std::chrono::milliseconds quiet{3};
  // A burst that lasts longer than this is compiled anyway, so steady edits cannot starve it.
  std::chrono::milliseconds max_delay{250};
  // The longest pause asked of an imposter after one of its compiles was overtaken.
  std::chrono::milliseconds max_backoff{1000};
  // Added to the compile thread's nice value: 0 competes with the workers as an equal.
  int nice = 10;
};

class Tiering {
 public:
  using Report = std::function<void(const std::string&)>;  // failures, for the log
  // Creating a JIT takes a few hundred milliseconds (it precompiles a header), so the factory
  // runs on the tiering thread and start-up does not wait; until it returns, and for good if it
  // fails, the interpreter serves.
  using CompilerFactory = std::function<std::variant<std::unique_ptr<TierCompiler>, std::string>()>;
  Tiering(CompilerFactory make_compiler, TieringSettings settings = {},
          Report report_failure = nullptr);
  ~Tiering();  // finishes the compile in progress, drops the queue
  Tiering(const Tiering&) = delete;
  Tiering& operator=(const Tiering&) = delete;

  // `imposter` has just published a new plan: compile it soon.
  void request(const std::shared_ptr<TierTarget>& imposter);
  const TieringMetrics& metrics() const { return metrics_; }
  // Waits until nothing is queued or compiling (tests and benchmarks).
  void drain();

 private:
  struct Pending {
    std::weak_ptr<TierTarget> imposter;
    std::chrono::steady_clock::time_point first;  // when the burst began
    std::chrono::steady_clock::time_point last;   // the burst's newest edit
    // Set once a compile of this imposter was overtaken by an edit: the pause its edits must
    // leave before the next compile, and `max_delay` no longer applies.
    std::chrono::steady_clock::duration backoff{};
  };
  using Clock = std::chrono::steady_clock;
  Clock::time_point due(const Pending& pending) const;
  void run();
  // How long the compile took (nothing when none was needed), and whether an edit overtook it
  // (its result was then discarded).
  struct Compiled {
    Clock::duration took{};
    bool overtaken = false;
  };
  std::optional<Compiled> compile(const std::shared_ptr<TierTarget>& imposter);
  // The pause a new burst of `imposter`'s edits must leave: its last compile's duration.
  Clock::duration remembered_backoff(const std::shared_ptr<TierTarget>& imposter);
  void record_failure(const std::string& error);

  CompilerFactory make_compiler_;
  std::unique_ptr<TierCompiler> compiler_;  // the tiering thread's own
  const TieringSettings settings_;
  const Report report_failure_;
  TieringMetrics metrics_;
  struct History {
    std::weak_ptr<TierTarget> imposter;  // expired: the address may be reused by a new imposter
    Clock::duration compile_time{};
  };
  std::mutex mutex_;  // guards the five below
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::map<const TierTarget*, Pending> pending_;
  std::map<const TierTarget*, History> history_;  // each imposter's last compile
  bool busy_ = false;
  bool stopping_ = false;
  std::thread thread_;  // last: starts after everything it uses exists
};

// The Prometheus series of the tiering thread, appended to GET /metrics.
std::string render_tiering_metrics(const TieringMetrics& metrics);

}  // namespace rift
