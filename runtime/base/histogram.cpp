#include "runtime/base/histogram.h"

#include <algorithm>
#include <cstdio>

namespace rift {
namespace {

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.9g", value);
  return text;
}

}  // namespace

template <size_t N>
void Histogram<N>::observe(double seconds) {
  size_t bucket = 0;
  while (bucket < N && seconds > bounds_[bucket]) ++bucket;
  Counts& counts = shards_[thread_shard()].value;
  if (bucket < N) counts.buckets[bucket].fetch_add(1, std::memory_order_relaxed);
  counts.count.fetch_add(1, std::memory_order_relaxed);
  counts.sum_nanos.fetch_add(static_cast<uint64_t>(seconds * 1e9), std::memory_order_relaxed);
}

template <size_t N>
uint64_t Histogram<N>::count() const {
  uint64_t total = 0;
  for (const auto& shard : shards_) total += shard.value.count.load(std::memory_order_relaxed);
  return total;
}

template <size_t N>
void Histogram<N>::render(std::string& out, const std::string& name,
                          const std::string& label) const {
  // An empty label renders an unlabelled series (process-wide histograms).
  render_labels(out, name, label.empty() ? "" : "imposter=\"" + label + "\"");
}

template <size_t N>
void Histogram<N>::render_labels(std::string& out, const std::string& name,
                                 const std::string& labels) const {
  const std::string braces = labels.empty() ? "" : "{" + labels + "}";
  const std::string bucket_suffix = labels.empty() ? "" : "," + labels;
  std::array<uint64_t, N> buckets{};
  uint64_t total = 0;
  uint64_t sum_nanos = 0;
  for (const auto& shard : shards_) {
    for (size_t i = 0; i < N; ++i) {
      buckets[i] += shard.value.buckets[i].load(std::memory_order_relaxed);
    }
    total += shard.value.count.load(std::memory_order_relaxed);
    sum_nanos += shard.value.sum_nanos.load(std::memory_order_relaxed);
  }
  uint64_t cumulative = 0;
  for (size_t i = 0; i < N; ++i) {
    cumulative += buckets[i];
    out += name + "_bucket{le=\"" + number(bounds_[i]) + "\"" + bucket_suffix + "} " +
           std::to_string(cumulative) + "\n";
  }
  // The shards are read one after another: +Inf must not fall below the last finite bucket.
  total = std::max(total, cumulative);
  out += name + "_bucket{le=\"+Inf\"" + bucket_suffix + "} " + std::to_string(total) + "\n";
  out += name + "_sum" + braces + " " + number(static_cast<double>(sum_nanos) / 1e9) + "\n";
  out += name + "_count" + braces + " " + std::to_string(total) + "\n";
}

template class Histogram<6>;
template class Histogram<9>;
template class Histogram<10>;
template class Histogram<11>;

}  // namespace rift
