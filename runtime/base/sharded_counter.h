// Counters that worker threads bump without sharing a cache line. Each thread adds to its own
// shard (chosen by its thread id, as the request journal chooses its ring) and a read sums the
// shards: several workers serving one imposter would otherwise pass one line between cores on
// every request.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <thread>

namespace rift {

inline constexpr size_t kCounterShards = 8;

// The shard the calling thread writes to, the same for its whole life.
inline size_t thread_shard() {
  thread_local const size_t shard =
      std::hash<std::thread::id>{}(std::this_thread::get_id()) % kCounterShards;
  return shard;
}

// One line per shard, so two threads never write the same one.
template <typename T>
struct alignas(64) CounterShard {
  T value{};
};

class ShardedCounter {
 public:
  void add(uint64_t amount = 1) {
    shards_[thread_shard()].value.fetch_add(amount, std::memory_order_relaxed);
  }
  uint64_t load() const {
    uint64_t total = 0;
    for (const auto& shard : shards_) total += shard.value.load(std::memory_order_relaxed);
    return total;
  }
  // Adds racing with a reset may survive it, as with one atomic.
  void reset() {
    for (auto& shard : shards_) shard.value.store(0, std::memory_order_relaxed);
  }

 private:
  std::array<CounterShard<std::atomic<uint64_t>>, kCounterShards> shards_{};
};

}  // namespace rift
