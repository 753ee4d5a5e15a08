// The in-memory flow store: one process's map, expired entries reaped (docs/flow-state.md).
#pragma once

#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>

#include "runtime/flow_state/flow_store.h"

namespace rift::flow_state {

class MemoryStore final : public FlowStore {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  // `now` is the clock lifetimes are measured on (tests pass their own).
  explicit MemoryStore(int64_t ttl_seconds, Clock now = std::chrono::steady_clock::now);

  Result<std::optional<ir::Json>> get(std::string_view flow, std::string_view key) override;
  Result<Done> set(std::string_view flow, std::string_view key, const ir::Json& value) override;
  Result<bool> remove(std::string_view flow, std::string_view key) override;
  Result<Done> clear(std::string_view flow) override;
  Result<int64_t> incr_by(std::string_view flow, std::string_view key, int64_t delta) override;
  Result<bool> compare_and_set(std::string_view flow, std::string_view key,
                               const std::optional<ir::Json>& expected,
                               const ir::Json& value) override;
  Result<bool> expire(std::string_view flow, std::string_view key, int64_t seconds) override;
  Result<Done> expire_flow(std::string_view flow, int64_t seconds) override;
  int64_t ttl_seconds() const override { return ttl_seconds_; }
  std::string_view backend() const override { return "inmemory"; }
  std::optional<size_t> active_flows() override;

  // Entries held, expired ones not yet reaped included (for tests of the reaper).
  size_t stored_entries();

 private:
  struct Entry {
    std::string text;  // canonical JSON
    std::chrono::steady_clock::time_point expires;
  };
  using Flow = std::unordered_map<std::string, Entry>;

  // The live entry, or null (an expired one is erased on the way). Called with mutex_ held.
  Entry* live(std::string_view flow, std::string_view key);
  void write(std::string_view flow, std::string_view key, std::string text);
  // At most once a second, drops every expired entry, so keys nobody reads again do not stay.
  void reap();

  const int64_t ttl_seconds_;
  const Clock now_;
  std::mutex mutex_;
  std::unordered_map<std::string, Flow> flows_;
  std::chrono::steady_clock::time_point next_reap_;
};

}  // namespace rift::flow_state
