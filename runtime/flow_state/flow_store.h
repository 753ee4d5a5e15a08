// A flow store: JSON values keyed by (flow id, key), each living ttlSeconds from its last write
// (docs/flow-state.md). Scenario states, script state and the flow-state admin routes all go
// through one. Backends: in memory (memory_store.h) and Redis (redis_store.h).
//
// Every call is safe from any thread. A backend that cannot answer says so (kUnavailable):
// callers answer 503 `backend unavailable`, never a default that would hide the outage.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "compiler/canonical_json.h"
#include "compiler/ir.h"

namespace rift::flow_state {

struct StoreError {
  enum class Kind {
    kUnavailable,  // the backend did not answer (Redis down, timed out, refused us)
    kBadValue,     // a stored value cannot be used as asked (incr_by on text, a scenario state
                   // that is not a string)
  };
  Kind kind;
  std::string detail;
};

template <class T>
using Result = std::variant<T, StoreError>;

struct Done {};

class FlowStore {
 public:
  virtual ~FlowStore() = default;

  // The value, or nullopt when absent or expired.
  virtual Result<std::optional<ir::Json>> get(std::string_view flow, std::string_view key) = 0;
  // Writes and restamps the key's lifetime to the store's ttlSeconds.
  virtual Result<Done> set(std::string_view flow, std::string_view key, const ir::Json& value) = 0;
  // True when there was a live value to remove.
  virtual Result<bool> remove(std::string_view flow, std::string_view key) = 0;
  // Removes every key of the flow.
  virtual Result<Done> clear(std::string_view flow) = 0;
  // Adds `delta` to a whole number (absent counts as 0), restamps it, and gives the sum.
  virtual Result<int64_t> incr_by(std::string_view flow, std::string_view key, int64_t delta) = 0;
  // Writes `value` only if the key now holds `expected` (nullopt: only if absent), atomically:
  // of two callers expecting the same value, one wins. True when it wrote.
  virtual Result<bool> compare_and_set(std::string_view flow, std::string_view key,
                                       const std::optional<ir::Json>& expected,
                                       const ir::Json& value) = 0;
  // Sets the key's remaining life (until its next write restamps it); `seconds` <= 0 removes
  // it. True when the key was live.
  virtual Result<bool> expire(std::string_view flow, std::string_view key, int64_t seconds) = 0;
  // expire() for every live key of the flow.
  virtual Result<Done> expire_flow(std::string_view flow, int64_t seconds) = 0;

  // How long a write lives, in seconds.
  virtual int64_t ttl_seconds() const = 0;
  // "inmemory" or "redis", for messages and GET /imposters.
  virtual std::string_view backend() const = 0;
  // Flows holding a live key now, for the metrics port's rift_active_flows (docs/metrics.md);
  // unset when the backend cannot say cheaply (Redis would need a SCAN of every key).
  virtual std::optional<size_t> active_flows() { return std::nullopt; }
};

// Values travel and are compared as their canonical JSON text (compiler/canonical_json.h).

}  // namespace rift::flow_state
