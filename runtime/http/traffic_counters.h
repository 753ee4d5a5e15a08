// What the network layer counts for the metrics port (docs/metrics.md): connections accepted and
// accept errors per listener, and the answers imposters gave by method and status. Workers bump
// them with relaxed atomics in per-thread shards; the metrics endpoint sums them when scraped.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/sharded_counter.h"

namespace rift::http {

struct Reply;

// One kind of listener (imposter, admin, metrics): what its accept loops did.
class AcceptCounters {
 public:
  // `slots`: the worker slots whose accepts are counted apart (0: none, only errors are kept).
  AcceptCounters(std::string listener, unsigned slots);

  const std::string& listener() const { return listener_; }
  void accepted(unsigned slot);
  // An accept that failed: `systemic` when the process or kernel ran out of something (file
  // descriptors, buffers, memory), which holds the listener in an outage until an accept works.
  void failed(bool systemic);
  // A listener of this kind entered (a systemic error) or left (an accept worked, or it closed)
  // an outage: the gauge is 1 while any is in one.
  void entered_outage();
  void left_outage();

  unsigned slots() const { return static_cast<unsigned>(accepted_.size()); }
  uint64_t accepted_on(unsigned slot) const;
  uint64_t transient_errors() const { return transient_.load(); }
  uint64_t systemic_errors() const { return systemic_.load(); }
  bool in_outage() const { return outage_.load(std::memory_order_relaxed) > 0; }

 private:
  std::string listener_;
  std::vector<CounterShard<std::atomic<uint64_t>>> accepted_;
  ShardedCounter transient_;
  ShardedCounter systemic_;
  std::atomic<int> outage_{0};  // listeners of this kind in an outage now
};

// True for accept errors that mean the system is out of a resource (EMFILE, ENFILE, ENOBUFS,
// ENOMEM); false for one connection's trouble (ECONNABORTED, EPROTO, ...).
bool systemic_accept_error(int error_number);

// The answers imposters wrote, by request method and status code.
class AnswerCounters {
 public:
  AnswerCounters();

  // The method's slot, computed when a request is dispatched: the nine methods of RFC 9110 and
  // PATCH have one each; any other is counted by name under a lock (rare by construction).
  static uint8_t method_slot(std::string_view method);
  static constexpr uint8_t kOtherMethod = 9;
  void count(uint8_t method_slot, std::string_view other_method, int status);
  // Every (method, status, count) with a count above zero, in method then status order.
  void for_each(const std::function<void(std::string_view, int, uint64_t)>& visit) const;

 private:
  static constexpr int kLowStatus = 100, kHighStatus = 600;  // [100, 600) kept in the table
  static constexpr size_t kStatuses = kHighStatus - kLowStatus;
  struct Shard {
    std::array<std::atomic<uint64_t>, size_t{kOtherMethod} * kStatuses> counts{};
  };
  std::vector<CounterShard<Shard>> shards_;
  mutable std::mutex others_mutex_;
  std::map<std::pair<std::string, int>, uint64_t> others_;  // other methods or statuses
};

// The status code a serialized reply starts with, or 0 when it has no status line (a reset).
int reply_status(const Reply& reply);

}  // namespace rift::http
