#include "runtime/admin/metrics_page.h"

#include <vector>

#include "runtime/imposter/metrics.h"
#include "runtime/metrics/default_series.h"
#include "runtime/tiering/tiering.h"

namespace rift::admin {

std::string render_admin_metrics(AdminState& state) {
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

  // Mountebank's page: prom-client joins families with a blank line and ends with a newline.
  std::vector<std::string> families;
  metrics::default_families(
      families, metrics::sample_default_series(1 + static_cast<int64_t>(imposters.size())));
  for (auto& family : imposter_families(sources, state.registry.ever_added()))
    families.push_back(std::move(family));
  std::string text;
  for (const auto& family : families) {
    if (!text.empty()) text += "\n\n";
    text += family;
  }
  text += "\n";

  // The reference Rift's two admin series (its contract puts them here), then Rift's own.
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
  return text;
}

}  // namespace rift::admin
