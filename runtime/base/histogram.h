// A Prometheus histogram kept in per-thread cache-line shards: observing never locks and never
// shares a cache line between workers; rendering sums the shards.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string>

#include "runtime/base/sharded_counter.h"

namespace rift {

template <size_t N>
class Histogram {
 public:
  explicit constexpr Histogram(const std::array<double, N>& bounds) : bounds_(bounds) {}
  void observe(double seconds);
  // Appends the _bucket/_sum/_count lines of one series labelled imposter="label" (none when
  // label is empty).
  void render(std::string& out, const std::string& name, const std::string& label) const;
  // The same with any labels, written as they go between the braces: `a="x",b="y"`.
  void render_labels(std::string& out, const std::string& name, const std::string& labels) const;
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

}  // namespace rift
