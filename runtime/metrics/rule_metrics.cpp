#include "runtime/metrics/rule_metrics.h"

namespace rift::metrics {

namespace {

constexpr std::array<const char*, 2> kScriptResults = {"inject", "error"};
constexpr std::array<const char*, 3> kScriptErrors = {"runtime", "timeout", "flow_state"};

void counter_line(std::string& out, const std::string& name, const std::string& labels,
                  uint64_t value) {
  out += name + "{" + labels + "} " + std::to_string(value) + "\n";
}

}  // namespace

std::string label_value(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\' || c == '"') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

void RuleMetrics::latency_fault(int64_t ms) {
  latency_faults_.add();
  // The histogram keeps its sum in nanos of its unit: milliseconds here, as the series' name says.
  latency_ms_.observe(static_cast<double>(ms));
}

void RuleMetrics::error_fault(int status) {
  error_faults_.add();
  std::lock_guard lock(statuses_mutex_);
  ++error_statuses_[status];
}

void RuleMetrics::script_ran(ScriptResult result, double ms) {
  script_ms_[static_cast<size_t>(result)].observe(ms);
}

void RuleMetrics::render(Families& out) const {
  const std::string rule = "rule_id=\"" + label_value(id_) + "\"";
  const std::pair<const char*, const ShardedCounter*> kinds[] = {
      {"error", &error_faults_}, {"latency", &latency_faults_}, {"tcp", &tcp_faults_}};
  for (const auto& [type, counter] : kinds) {
    if (const uint64_t value = counter->load()) {
      counter_line(out.faults, "rift_faults_injected_total",
                   std::string("type=\"") + type + "\"," + rule + ",source=\"v1\"", value);
    }
  }
  if (latency_ms_.count() > 0)
    latency_ms_.render_labels(out.latency, "rift_latency_injected_ms", rule);
  {
    std::lock_guard lock(statuses_mutex_);
    for (const auto& [status, value] : error_statuses_) {
      counter_line(out.error_status, "rift_error_status_total",
                   "status=\"" + std::to_string(status) + "\"," + rule, value);
    }
  }
  for (size_t i = 0; i < script_ms_.size(); ++i) {
    if (script_ms_[i].count() == 0) continue;
    script_ms_[i].render_labels(out.script_duration, "rift_script_execution_duration_ms",
                                rule + ",result=\"" + kScriptResults[i] + "\"");
  }
  for (size_t i = 0; i < script_errors_.size(); ++i) {
    if (const uint64_t value = script_errors_[i].load()) {
      counter_line(out.script_errors, "rift_script_errors_total",
                   rule + ",error_type=\"" + kScriptErrors[i] + "\"", value);
    }
  }
}

}  // namespace rift::metrics
