// RequestCache: a per-request cache whose entries outlive the request.
//
// The evaluator caches work per request under keys fixed at prepare time (a normalization
// profile plus a field), so consecutive requests ask for the same keys. Entries therefore stay
// in place between requests, keeping their key strings, hash nodes and buffers, and count only
// when stamped with the current request's generation: a steady stream of requests allocates
// nothing here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>

namespace rift {

template <typename Value>
class RequestCache {
 public:
  // The entry for `key`, and true when the current request has not filled it yet: the caller
  // fills it now (it starts empty). References stay valid while other keys are added.
  std::pair<Value&, bool> try_emplace(const std::string& key) {
    auto it = entries_.find(key);
    if (it == entries_.end()) it = entries_.try_emplace(key).first;
    Entry& entry = it->second;
    if (entry.generation == generation_) return {entry.value, false};
    entry.generation = generation_;
    if constexpr (requires { entry.value.clear(); }) {
      entry.value.clear();  // keeps the capacity
    } else {
      entry.value = Value();
    }
    return {entry.value, true};
  }

  // True when the current request has filled the entry for `key`.
  bool contains(const std::string& key) const {
    const auto it = entries_.find(key);
    return it != entries_.end() && it->second.generation == generation_;
  }

  // How many entries the current request has filled.
  size_t filled() const {
    size_t count = 0;
    for (const auto& [key, entry] : entries_) count += entry.generation == generation_ ? 1 : 0;
    return count;
  }

  // Ends the current request: every entry becomes stale. Keys that stopped recurring (after a
  // plan change) are dropped once there are too many to be the working set of one plan.
  void next_request() {
    ++generation_;
    if (entries_.size() > kMaxKeptEntries) entries_.clear();
  }

 private:
  static constexpr size_t kMaxKeptEntries = 1024;
  struct Entry {
    uint64_t generation = 0;
    Value value{};
  };
  std::unordered_map<std::string, Entry> entries_;
  uint64_t generation_ = 1;
};

}  // namespace rift
