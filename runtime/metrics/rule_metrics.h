// What one rule (a stub, named by its imposter's port and its id or index) did that the metrics
// port reports per rule: the faults it injected and the scripts it ran (docs/metrics.md).
// A rule's counters are looked up once, when a plan is published, and kept by the plan; the
// serving path only adds to them.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "runtime/base/histogram.h"
#include "runtime/base/sharded_counter.h"

namespace rift::metrics {

class RuleMetrics {
 public:
  explicit RuleMetrics(std::string id) : id_(std::move(id)) {}
  const std::string& id() const { return id_; }

  void latency_fault(int64_t ms);
  void error_fault(int status);
  void tcp_fault() { tcp_faults_.add(); }

  enum class ScriptResult : size_t { kInject, kError };
  enum class ScriptError : size_t { kRuntime, kTimeout, kFlowState };
  void script_ran(ScriptResult result, double ms);
  void script_failed(ScriptError error) { script_errors_[static_cast<size_t>(error)].add(); }

  // Appends this rule's lines of each family to the family's text (see exposition.cpp).
  struct Families {
    std::string faults, latency, error_status, script_duration, script_errors;
  };
  void render(Families& out) const;

 private:
  std::string id_;
  ShardedCounter latency_faults_, error_faults_, tcp_faults_;
  Histogram<9> latency_ms_{{10, 50, 100, 250, 500, 1000, 2500, 5000, 10000}};
  mutable std::mutex statuses_mutex_;  // error faults are rare enough for a lock
  std::map<int, uint64_t> error_statuses_;
  std::array<Histogram<9>, 2> script_ms_{Histogram<9>{{0.1, 0.5, 1, 2.5, 5, 10, 25, 50, 100}},
                                         Histogram<9>{{0.1, 0.5, 1, 2.5, 5, 10, 25, 50, 100}}};
  std::array<ShardedCounter, 3> script_errors_;
};

// A Prometheus label value, escaped: backslash, double quote and newline.
std::string label_value(std::string_view value);

}  // namespace rift::metrics
