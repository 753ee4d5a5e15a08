// A flow store that counts what is asked of another, by operation and outcome, for the metrics
// port's rift_flow_state_ops_total (docs/metrics.md). An error is a StoreError answer; a miss or
// a failed compare is still a success.
#pragma once

#include <array>
#include <memory>
#include <string_view>

#include "runtime/base/sharded_counter.h"
#include "runtime/flow_state/flow_store.h"

namespace rift::flow_state {

class FlowOpCounters {
 public:
  enum Op : size_t { kGet, kSet, kDelete, kClear, kIncrement, kCas, kExpire, kOps };
  static constexpr std::array<std::string_view, kOps> kNames = {
      "get", "set", "delete", "clear", "increment", "cas", "expire"};

  void count(Op op, bool ok) { (ok ? success_ : error_)[op].add(); }
  uint64_t successes(Op op) const { return success_[op].load(); }
  uint64_t errors(Op op) const { return error_[op].load(); }

 private:
  std::array<ShardedCounter, kOps> success_;
  std::array<ShardedCounter, kOps> error_;
};

std::shared_ptr<FlowStore> counting_store(std::shared_ptr<FlowStore> inner,
                                          std::shared_ptr<FlowOpCounters> counters);

}  // namespace rift::flow_state
