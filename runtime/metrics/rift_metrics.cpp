#include "runtime/metrics/rift_metrics.h"

#include <cstring>

namespace rift::metrics {

namespace {

constexpr std::array<const char*, 4> kTierNames = {"interpreter", "jit", "aot", "other"};
constexpr std::array<double, 11> kUpstreamBounds = {1,   5,   10,   25,   50,  100,
                                                    250, 500, 1000, 2500, 5000};

void family(std::string& out, const char* name, const char* type, const char* help,
            const std::string& lines) {
  if (lines.empty()) return;  // as prometheus::gather, a family without series is left out
  out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
  out += lines;
}

}  // namespace

Tier tier_of(const char* name) {
  for (size_t i = 0; i + 1 < kTierNames.size(); ++i) {
    if (std::strcmp(name, kTierNames[i]) == 0) return static_cast<Tier>(i);
  }
  return Tier::kOther;
}

RiftMetrics::RiftMetrics(unsigned workers)
    : imposter_accepts(std::make_shared<http::AcceptCounters>("imposter", workers)),
      admin_accepts(std::make_shared<http::AcceptCounters>("admin", 0)),
      metrics_accepts(std::make_shared<http::AcceptCounters>("metrics", 0)),
      answers(std::make_shared<http::AnswerCounters>()),
      flow_ops(std::make_shared<flow_state::FlowOpCounters>()) {}

std::shared_ptr<RuleMetrics> RiftMetrics::rule(const std::string& id) {
  std::lock_guard lock(rules_mutex_);
  auto& slot = rules_[id];
  if (!slot) slot = std::make_shared<RuleMetrics>(id);
  return slot;
}

void RiftMetrics::upstream(std::string_view method, int status, double ms) {
  std::lock_guard lock(upstream_mutex_);
  auto& slot = upstream_[{std::string(method), status}];
  if (!slot) slot = std::make_unique<Histogram<11>>(kUpstreamBounds);
  slot->observe(ms);
}

std::string rule_id(int port, const std::optional<std::string>& stub_id, size_t index) {
  return std::to_string(port) + "/" + (stub_id ? *stub_id : std::to_string(index));
}

std::string RiftMetrics::render(const std::map<std::string, uint64_t>& active_flows) const {
  std::string out;
  // Families in name order, as the reference's encoder writes them.
  std::string lines;
  const http::AcceptCounters* listeners[] = {admin_accepts.get(), imposter_accepts.get(),
                                             metrics_accepts.get()};
  for (const auto* listener : listeners) {
    lines += "rift_accept_error_outage{listener=\"" + listener->listener() + "\"} " +
             (listener->in_outage() ? "1" : "0") + "\n";
  }
  family(out, "rift_accept_error_outage", "gauge",
         "1 while a listener is in a systemic accept-error outage, 0 otherwise", lines);
  lines.clear();
  for (const char* kind : {"systemic", "transient"}) {
    for (const auto* listener : listeners) {
      const uint64_t value = std::strcmp(kind, "systemic") == 0 ? listener->systemic_errors()
                                                                : listener->transient_errors();
      lines += std::string("rift_accept_errors_total{class=\"") + kind + "\",listener=\"" +
               listener->listener() + "\"} " + std::to_string(value) + "\n";
    }
  }
  family(out, "rift_accept_errors_total", "counter", "Accept errors by listener and class", lines);
  lines.clear();
  for (const auto& [backend, flows] : active_flows) {
    lines += "rift_active_flows{backend=\"" + label_value(backend) + "\"} " +
             std::to_string(flows) + "\n";
  }
  family(out, "rift_active_flows", "gauge", "Number of active flows being tracked in flow state",
         lines);
  lines.clear();
  for (unsigned slot = 0; slot < imposter_accepts->slots(); ++slot) {
    lines += "rift_accepted_connections_total{worker=\"" + std::to_string(slot) + "\"} " +
             std::to_string(imposter_accepts->accepted_on(slot)) + "\n";
  }
  family(out, "rift_accepted_connections_total", "counter",
         "Connections accepted by imposters, by the worker thread that accepted them", lines);

  RuleMetrics::Families rules;
  {
    std::lock_guard lock(rules_mutex_);
    for (const auto& [id, rule] : rules_) rule->render(rules);
  }
  family(out, "rift_error_status_total", "counter", "Count of error status codes injected",
         rules.error_status);
  family(out, "rift_faults_injected_total", "counter", "Total number of faults injected",
         rules.faults);

  lines.clear();
  for (size_t op = 0; op < flow_state::FlowOpCounters::kOps; ++op) {
    const auto which = static_cast<flow_state::FlowOpCounters::Op>(op);
    const std::string name(flow_state::FlowOpCounters::kNames[op]);
    if (const uint64_t value = flow_ops->errors(which)) {
      lines += "rift_flow_state_ops_total{operation=\"" + name + "\",result=\"error\"} " +
               std::to_string(value) + "\n";
    }
    if (const uint64_t value = flow_ops->successes(which)) {
      lines += "rift_flow_state_ops_total{operation=\"" + name + "\",result=\"success\"} " +
               std::to_string(value) + "\n";
    }
  }
  family(out, "rift_flow_state_ops_total", "counter", "Total number of flow state operations",
         lines);
  family(out, "rift_latency_injected_ms", "histogram",
         "Histogram of injected latency in milliseconds", rules.latency);

  lines.clear();
  for (size_t tier = 0; tier < tiers_.size(); ++tier) {
    if (const uint64_t value = tiers_[tier].load()) {
      lines += std::string("rift_matches_total{tier=\"") + kTierNames[tier] + "\"} " +
               std::to_string(value) + "\n";
    }
  }
  family(out, "rift_matches_total", "counter",
         "Requests matched against imposter stubs, by the tier that matched them", lines);

  lines.clear();
  answers->for_each([&](std::string_view method, int status, uint64_t value) {
    lines += "rift_requests_total{method=\"" + label_value(method) + "\",status=\"" +
             std::to_string(status) + "\"} " + std::to_string(value) + "\n";
  });
  family(out, "rift_requests_total", "counter", "Total number of requests answered by imposters",
         lines);
  family(out, "rift_script_errors_total", "counter", "Total number of script execution errors",
         rules.script_errors);
  family(out, "rift_script_execution_duration_ms", "histogram",
         "Histogram of script execution time in milliseconds", rules.script_duration);

  lines.clear();
  {
    std::lock_guard lock(upstream_mutex_);
    for (const auto& [key, histogram] : upstream_) {
      histogram->render_labels(lines, "rift_upstream_request_duration_ms",
                               "method=\"" + label_value(key.first) + "\",status=\"" +
                                   std::to_string(key.second) + "\"");
    }
  }
  family(out, "rift_upstream_request_duration_ms", "histogram",
         "Duration of proxied requests to their origin", lines);
  return out;
}

}  // namespace rift::metrics
