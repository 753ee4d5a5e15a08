#include "runtime/admin/process.h"

#include <sys/resource.h>
#include <unistd.h>

#include <charconv>
#include <string>
#include <vector>

#include "runtime/imposter/metrics.h"
#include "runtime/tiering/tiering.h"

namespace rift::admin {

void get_root(AdminState&, Call& call) {
  if (!call.negotiate()) return;
  call.send(200, ir::Json{{"_links",
                           {{"imposters", {{"href", call.base_url + "/imposters"}}},
                            {"config", {{"href", call.base_url + "/config"}}},
                            {"logs", {{"href", call.base_url + "/logs"}}}}}});
}

void get_config(AdminState& state, Call& call) {
  if (!call.negotiate()) return;
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  char cwd[4096] = {};
  if (getcwd(cwd, sizeof(cwd)) == nullptr) cwd[0] = '\0';
  ir::Json process = ir::Json::object();
  process["nodeVersion"] = "n/a (Rift)";
  process["architecture"] = "x64";
  process["platform"] = "linux";
  process["rss"] = static_cast<int64_t>(usage.ru_maxrss) * 1024;
  process["heapTotal"] = 0;
  process["heapUsed"] = 0;
  process["uptime"] = 0;
  process["cwd"] = cwd;
  call.send(200, ir::Json{{"version", "2.9.1"},
                          {"options", state.options.to_config_json()},
                          {"process", process}});
}

void get_logs(AdminState& state, Call& call) {
  if (!call.negotiate()) return;
  auto number = [&](const char* name) -> std::optional<long> {
    const auto text = call.query(name);
    if (!text) return std::nullopt;
    long value = 0;
    auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
    if (error != std::errc()) return std::nullopt;
    return value;
  };
  call.send(200, state.logger.entries(number("startIndex"), number("endIndex")));
}

void get_metrics(AdminState& state, Call& call) {
  const auto imposters = state.registry.list();  // keeps every imposter alive while rendering
  std::vector<MetricsSource> sources;
  for (const auto& imposter : imposters) {
    const auto& config = imposter->config();
    // Mountebank's log scope, trailing space included.
    std::string label = "[" + config.protocol + ":" + std::to_string(imposter->port());
    if (config.name) label += " " + *config.name;
    label += "] ";
    sources.push_back({std::move(label), &imposter->metrics()});
  }
  std::string text = render_metrics(sources);
  // The reference Rift's two admin series, beside Mountebank's.
  text +=
      "# HELP rift_imposters_total Total number of active imposters\n"
      "# TYPE rift_imposters_total gauge\n"
      "rift_imposters_total " +
      std::to_string(imposters.size()) +
      "\n"
      "# HELP rift_imposter_requests_total Total requests per imposter\n"
      "# TYPE rift_imposter_requests_total counter\n";
  for (const auto& imposter : imposters) {
    text += "rift_imposter_requests_total{port=\"" + std::to_string(imposter->port()) + "\"} " +
            std::to_string(imposter->number_of_requests()) + "\n";
  }
  if (state.tiering) text += render_tiering_metrics(state.tiering->metrics());
  if (state.events) text += state.events->render_metrics();
  call.send_raw(200, "text/plain; version=0.0.4; charset=utf-8", std::move(text));
}

}  // namespace rift::admin
