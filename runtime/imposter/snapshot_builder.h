// Lowers an imposter's IR into a PlanSnapshot: plan the matcher, pre-render every response.
#pragma once

#include <memory>
#include <variant>
#include <vector>

#include "compiler/errors.h"
#include "runtime/imposter/plan_snapshot.h"
#include "runtime/metrics/rift_metrics.h"

namespace rift {

// `states[i]` is stub i's cycle position (same length as config->stubs).
std::variant<std::shared_ptr<const PlanSnapshot>, MbError> build_snapshot(
    std::shared_ptr<const ir::Imposter> config, std::vector<std::shared_ptr<StubState>> states,
    uint64_t version, bool keep_alive, const MatcherFactory& compiled = nullptr,
    metrics::RiftMetrics* metrics = nullptr);

// The milliseconds a response's `wait` behaviors add up to (numbers or numeric strings).
std::chrono::milliseconds total_wait(const ir::Response& response);

}  // namespace rift
