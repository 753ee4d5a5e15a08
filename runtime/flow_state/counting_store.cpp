#include "runtime/flow_state/counting_store.h"

namespace rift::flow_state {

namespace {

class CountingStore final : public FlowStore {
 public:
  CountingStore(std::shared_ptr<FlowStore> inner, std::shared_ptr<FlowOpCounters> counters)
      : inner_(std::move(inner)), counters_(std::move(counters)) {}

  Result<std::optional<ir::Json>> get(std::string_view flow, std::string_view key) override {
    return counted(FlowOpCounters::kGet, inner_->get(flow, key));
  }
  Result<Done> set(std::string_view flow, std::string_view key, const ir::Json& value) override {
    return counted(FlowOpCounters::kSet, inner_->set(flow, key, value));
  }
  Result<bool> remove(std::string_view flow, std::string_view key) override {
    return counted(FlowOpCounters::kDelete, inner_->remove(flow, key));
  }
  Result<Done> clear(std::string_view flow) override {
    return counted(FlowOpCounters::kClear, inner_->clear(flow));
  }
  Result<int64_t> incr_by(std::string_view flow, std::string_view key, int64_t delta) override {
    return counted(FlowOpCounters::kIncrement, inner_->incr_by(flow, key, delta));
  }
  Result<bool> compare_and_set(std::string_view flow, std::string_view key,
                               const std::optional<ir::Json>& expected,
                               const ir::Json& value) override {
    return counted(FlowOpCounters::kCas, inner_->compare_and_set(flow, key, expected, value));
  }
  Result<bool> expire(std::string_view flow, std::string_view key, int64_t seconds) override {
    return counted(FlowOpCounters::kExpire, inner_->expire(flow, key, seconds));
  }
  Result<Done> expire_flow(std::string_view flow, int64_t seconds) override {
    return counted(FlowOpCounters::kExpire, inner_->expire_flow(flow, seconds));
  }
  int64_t ttl_seconds() const override { return inner_->ttl_seconds(); }
  std::string_view backend() const override { return inner_->backend(); }
  std::optional<size_t> active_flows() override { return inner_->active_flows(); }

 private:
  template <class T>
  Result<T> counted(FlowOpCounters::Op op, Result<T> result) {
    counters_->count(op, !std::holds_alternative<StoreError>(result));
    return result;
  }

  std::shared_ptr<FlowStore> inner_;
  std::shared_ptr<FlowOpCounters> counters_;
};

}  // namespace

std::shared_ptr<FlowStore> counting_store(std::shared_ptr<FlowStore> inner,
                                          std::shared_ptr<FlowOpCounters> counters) {
  return std::make_shared<CountingStore>(std::move(inner), std::move(counters));
}

}  // namespace rift::flow_state
