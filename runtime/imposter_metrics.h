// Mountebank's per-imposter Prometheus series (spec 1.7), kept with relaxed atomics in per-thread
// shards so the hot path neither locks nor shares a cache line between workers: request and
// no-match counts, blocked clients, and the two latency histograms (predicate matching,
// response generation) with prom-client's bucket bounds. Reads sum the shards.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/sharded_counter.h"

namespace rift {

template <size_t N>
class Histogram {
 public:
  explicit constexpr Histogram(const std::array<double, N>& bounds) : bounds_(bounds) {}
  void observe(double seconds);
  // Appends the _bucket/_sum/_count lines of one labelled series.
  void render(std::string& out, const std::string& name, const std::string& label) const;
  uint64_t count() const;

 private:
  struct Counts {
    std::array<std::atomic<uint64_t>, N> buckets{};  // per bucket, not yet cumulative
    std::atomic<uint64_t> count{0};
    std::atomic<uint64_t> sum_nanos{0};
  };

  std::array<double, N> bounds_;
  std::array<CounterShard<Counts>, kCounterShards> shards_{};
};

struct ImposterMetrics {
  Histogram<6> match_duration{{0.01, 0.05, 0.1, 0.2, 0.5, 1}};
  Histogram<10> response_duration{{0.01, 0.05, 0.1, 0.2, 0.5, 1, 3, 5, 10, 30}};
  ShardedCounter requests;  // every request that passed the client filter
  ShardedCounter no_match;
  ShardedCounter blocked;
};

// The exposition text for every imposter: `imposters` is a list of (label, metrics) pairs where
// label is Mountebank's log scope, e.g. "[http:4545 name] ".
struct MetricsSource {
  std::string label;
  const ImposterMetrics* metrics;
};
std::string render_metrics(const std::vector<MetricsSource>& imposters);

}  // namespace rift
