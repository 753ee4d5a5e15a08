// PlanSnapshot: everything a worker needs to answer a request for one imposter, immutable once
// published. Admin edits build a new snapshot off the hot path and publish it with one atomic
// store; workers take it with one atomic load, so no request ever sees a half-applied edit.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "compiler/ir.h"
#include "compiler/matcher.h"
#include "compiler/plan.h"
#include "runtime/behaviors/pipeline.h"
#include "runtime/imposter/response_renderer.h"
#include "runtime/imposter/templated_wire.h"
#include "runtime/metrics/rift_metrics.h"
#include "templates/response_template.h"

namespace rift {

// Where a stub is in its response cycle. Outlives snapshots: editing *other* stubs keeps a stub's
// position, replacing the stub gives it a fresh one (docs/mountebank-semantics.md §5.1).
struct StubState {
  std::atomic<uint64_t> served{0};
  std::mutex matches_mutex;       // --debug only: guards `matches`
  std::vector<ir::Json> matches;  // what this stub answered, for GET /imposters/:id
};

struct PreparedResponse {
  const ir::Response* response = nullptr;  // points into PlanSnapshot::config
  // The bytes for the common case (not HEAD, HTTP/1.1, no CORS echo); rendered at publish time.
  std::optional<WireResponse> wire;
  // A 500 at request time: an invalid statusCode.
  std::optional<MbError> render_error;
  std::chrono::milliseconds wait{0};  // the sum of the response's `wait` behaviors
  // Set when serving needs more than a delay (copy, lookup, shellTransform, decorate, a wait
  // function): the response is then transformed and rendered per request, and `wire` stays empty.
  std::shared_ptr<const behaviors::Pipeline> behaviors;
  // Set when the `is` response has dynamic template pieces (docs/templates.md): it is rendered
  // per request, and `wire` stays empty.
  std::shared_ptr<const templates::ResponseTemplate> templated;
  // Set too when only the body is dynamic and its framing is a chunk: the head is rendered now.
  std::shared_ptr<const TemplatedWire> templated_wire;
  // The stub's series on the metrics port, when it can inject faults or runs a script and the
  // process serves metrics (runtime/metrics/rule_metrics.h).
  std::shared_ptr<metrics::RuleMetrics> rule;
};

struct StubPlan {
  std::shared_ptr<StubState> state;
  std::vector<PreparedResponse> responses;
  // cycle_ends[i] = repeat[0] + ... + repeat[i]; a stub's n-th answer is the first i whose end
  // exceeds n modulo the total.
  std::vector<uint64_t> cycle_ends;

  const PreparedResponse& next() const;
  // The response next() would give now, without moving the cycle (X-Rift-Debug).
  const PreparedResponse& peek() const;

 private:
  const PreparedResponse& answer(uint64_t n) const;
};

// Chooses the matcher that serves a stub list: a compiled tier when one was built for exactly
// these stubs, or null for the interpreter. Called on every publish.
using MatcherFactory = std::function<std::unique_ptr<const Matcher>(
    const ir::Imposter& config, const std::shared_ptr<const plan::Tree>& tree)>;

struct PlanSnapshot {
  uint64_t version = 0;
  std::shared_ptr<const ir::Imposter> config;
  std::shared_ptr<const plan::Tree> tree;  // what the matcher executes; for inspection
  std::unique_ptr<const Matcher> matcher;
  metrics::Tier tier = metrics::Tier::kInterpreter;  // matcher's, for rift_matches_total
  std::vector<StubPlan> stubs;
  WireResponse no_match;  // defaultResponse, or the empty 200
  // Set when the defaultResponse's body has date tokens (docs/templates.md#where): the no-match
  // answer is then rendered per request, and `no_match` is not served.
  std::shared_ptr<const templates::ResponseTemplate> default_template;
  // Some stub gates on or moves a scenario (docs/scenarios.md): requests then read the flow
  // store while matching. False costs nothing per request.
  bool scenarios = false;
  // Set when a background compile put `matcher` in service (GET /imposters/:id/plan).
  double compile_ms = 0;
  size_t code_bytes = 0;
};

// `snapshot` served by `matcher` instead: the same version, stubs and cycle positions.
std::shared_ptr<const PlanSnapshot> with_matcher(const PlanSnapshot& snapshot,
                                                 std::unique_ptr<const Matcher> matcher,
                                                 double compile_ms, size_t code_bytes);

}  // namespace rift
