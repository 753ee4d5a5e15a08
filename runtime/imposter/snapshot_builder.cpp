#include "runtime/imposter/snapshot_builder.h"

#include <algorithm>

#include "compiler/interpreter.h"
#include "compiler/plan.h"
#include "runtime/behaviors/pipeline.h"
#include "runtime/imposter/tcp_wire.h"

namespace rift {

std::chrono::milliseconds total_wait(const ir::Response& response) {
  std::chrono::milliseconds total{0};
  for (const ir::Behavior& behavior : response.behaviors) {
    if (behavior.kind != ir::BehaviorKind::kWait) continue;
    // A wait function puts the response through the behavior pipeline, which sums the waits.
    if (const auto delay = behaviors::wait_delay(behavior.config)) total += *delay;
  }
  return total;
}

std::variant<std::shared_ptr<const PlanSnapshot>, MbError> build_snapshot(
    std::shared_ptr<const ir::Imposter> config, std::vector<std::shared_ptr<StubState>> states,
    uint64_t version, bool keep_alive, const MatcherFactory& compiled,
    metrics::RiftMetrics* metrics) {
  auto tree = plan::build(config->stubs, request_protocol(config->protocol));
  if (auto* error = std::get_if<MbError>(&tree)) return *error;

  auto snapshot = std::make_shared<PlanSnapshot>();
  snapshot->version = version;
  snapshot->config = config;
  snapshot->tree = std::get<std::shared_ptr<const plan::Tree>>(std::move(tree));
  if (compiled) snapshot->matcher = compiled(*config, snapshot->tree);
  if (!snapshot->matcher) snapshot->matcher = std::make_unique<Interpreter>(snapshot->tree);
  snapshot->tier = metrics::tier_of(snapshot->matcher->tier());

  WireContext common;
  common.wire = wire_of(*config);
  common.imposter_marker = common.wire == WireContext::Wire::kHttp;
  common.keep_alive_default = keep_alive;
  snapshot->stubs.reserve(config->stubs.size());
  for (size_t i = 0; i < config->stubs.size(); ++i) {
    const ir::Stub& stub = config->stubs[i];
    StubPlan plan;
    plan.state = i < states.size() && states[i] ? states[i] : std::make_shared<StubState>();
    uint64_t end = 0;
    std::shared_ptr<metrics::RuleMetrics> rule;  // looked up once the stub needs it
    for (const ir::Response& response : stub.responses) {
      PreparedResponse prepared;
      prepared.response = &response;
      if (metrics && (response.fault || response.kind == ir::ResponseKind::kScript)) {
        if (!rule) rule = metrics->rule(metrics::rule_id(config->port.value_or(0), stub.id, i));
        prepared.rule = rule;
      }
      prepared.wait = total_wait(response);
      if (response.kind != ir::ResponseKind::kFault && behaviors::needs_pipeline(response)) {
        prepared.behaviors = behaviors::Pipeline::prepare(response.behaviors);
      }
      if (response.kind == ir::ResponseKind::kIs) {
        auto compiled = templates::ResponseTemplate::compile(response.value, response.templated);
        // The frontends refused a template that does not compile; one that does is kept.
        if (auto* kept = std::get_if<templates::ResponseTemplate>(&compiled);
            kept && !kept->is_static()) {
          prepared.templated =
              std::make_shared<const templates::ResponseTemplate>(std::move(*kept));
          if (prepared.templated->body_only() && !prepared.behaviors) {
            if (auto wire =
                    TemplatedWire::prepare(response.value, config->default_response, common)) {
              prepared.templated_wire = std::make_shared<const TemplatedWire>(std::move(*wire));
            }
          }
        }
      }
      if (response.kind == ir::ResponseKind::kIs && !prepared.render_error && !prepared.behaviors &&
          !prepared.templated) {
        auto wire = render_response(response.value, config->default_response, common);
        if (auto* rendered = std::get_if<WireResponse>(&wire)) {
          prepared.wire = std::move(*rendered);
        } else {
          prepared.render_error = std::get<MbError>(wire);
        }
      }
      plan.responses.push_back(std::move(prepared));
      end += static_cast<uint64_t>(response.repeat > 0 ? response.repeat : 1);
      plan.cycle_ends.push_back(end);
    }
    snapshot->stubs.push_back(std::move(plan));
  }

  snapshot->scenarios = std::any_of(config->stubs.begin(), config->stubs.end(), [](const auto& s) {
    return s.required_scenario_state || s.new_scenario_state;
  });
  WireContext unmatched = common;
  unmatched.extra_headers = no_match_markers(config->default_response.has_value());
  if (config->default_response) {
    auto dated = templates::ResponseTemplate::compile_default(*config->default_response);
    if (!dated.is_static()) {
      snapshot->default_template =
          std::make_shared<const templates::ResponseTemplate>(std::move(dated));
    }
  }
  auto no_match = render_response(ir::Json::object(), config->default_response, unmatched);
  if (auto* rendered = std::get_if<WireResponse>(&no_match)) {
    snapshot->no_match = std::move(*rendered);
  } else {
    snapshot->no_match = render_error(std::get<MbError>(no_match), common);
  }
  return std::shared_ptr<const PlanSnapshot>(std::move(snapshot));
}

}  // namespace rift
