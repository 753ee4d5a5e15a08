// The series of the metrics port (--metricsPort, docs/metrics.md): the reference Rift's that
// apply to us, plus which tier matched each request. One RiftMetrics per process, owned by
// serve() and handed down: the listeners count accepts and answers, imposters count tiers,
// faults, scripts, flow-state operations and proxied calls. Nothing on the serving path locks
// except a fault, script or proxy answer's own series, which are rarer and slower by nature.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "runtime/base/histogram.h"
#include "runtime/base/sharded_counter.h"
#include "runtime/flow_state/counting_store.h"
#include "runtime/http/traffic_counters.h"
#include "runtime/metrics/rule_metrics.h"

namespace rift::metrics {

// The matcher that chose a request's stub (compiler/matcher.h's tier()).
enum class Tier : uint8_t { kInterpreter, kJit, kAot, kOther };
Tier tier_of(const char* name);

class RiftMetrics {
 public:
  // `workers`: the imposters' worker threads, each counted apart in accepted connections.
  explicit RiftMetrics(unsigned workers);

  const std::shared_ptr<http::AcceptCounters> imposter_accepts;
  const std::shared_ptr<http::AcceptCounters> admin_accepts;
  const std::shared_ptr<http::AcceptCounters> metrics_accepts;
  const std::shared_ptr<http::AnswerCounters> answers;
  const std::shared_ptr<flow_state::FlowOpCounters> flow_ops;

  void matched(Tier tier) { tiers_[static_cast<size_t>(tier)].add(); }
  // The counters of rule `id` ("<port>/<stub id or index>"), made on first use and kept for the
  // process's life, so a republished plan goes on counting where the last one stopped.
  std::shared_ptr<RuleMetrics> rule(const std::string& id);
  // A proxied call's round trip to its origin.
  void upstream(std::string_view method, int status, double ms);

  // The Prometheus text exposition (format 0.0.4) of every series. `active_flows`: the flows
  // the imposters' stores hold now, by backend (rift_active_flows), summed by the caller, which
  // knows the imposters.
  std::string render(const std::map<std::string, uint64_t>& active_flows = {}) const;

 private:
  std::array<ShardedCounter, 4> tiers_;
  mutable std::mutex rules_mutex_;
  std::map<std::string, std::shared_ptr<RuleMetrics>> rules_;
  mutable std::mutex upstream_mutex_;
  std::map<std::pair<std::string, int>, std::unique_ptr<Histogram<11>>> upstream_;
};

// The rule id of stub `index` of the imposter on `port` (docs/metrics.md#rule-ids).
std::string rule_id(int port, const std::optional<std::string>& stub_id, size_t index);

}  // namespace rift::metrics
