#include "runtime/imposter/metrics.h"

#include <vector>

namespace rift {
namespace {

std::string header(const char* name, const char* help, const char* type) {
  std::string out;
  out.append("# HELP ").append(name).append(" ").append(help).append("\n");
  out.append("# TYPE ").append(name).append(" ").append(type);
  return out;
}

// Series lines end with a newline; a block has none at its end.
std::string block(std::string head, const std::string& series) {
  if (!series.empty()) head.append("\n").append(series, 0, series.size() - 1);
  return head;
}

}  // namespace

std::vector<std::string> imposter_families(const std::vector<MetricsSource>& imposters,
                                           bool any_made) {
  std::vector<std::string> families;
  if (!any_made) return families;
  // Series appear once an imposter has been called, as with prom-client's labelled metrics.
  std::vector<MetricsSource> called;
  for (const auto& source : imposters) {
    if (source.metrics->requests.load() > 0 || source.metrics->blocked.load() > 0) {
      called.push_back(source);
    }
  }
  auto counter = [&](const char* name, const char* help, auto member) {
    std::string series;
    for (const auto& source : called) {
      const uint64_t value = (source.metrics->*member).load();
      if (value > 0) {
        series += std::string(name) + "{imposter=\"" + source.label + "\"} " +
                  std::to_string(value) + "\n";
      }
    }
    families.push_back(block(header(name, help, "counter"), series));
  };
  auto histogram = [&](const char* name, const char* help, const auto& member) {
    std::string series;
    for (const auto& source : called) {
      const auto& values = source.metrics->*member;
      if (values.count() > 0) values.render(series, name, source.label);
    }
    families.push_back(block(header(name, help, "histogram"), series));
  };
  // Mountebank's order (src/models/imposter.js, createImposterMetrics).
  histogram("mb_predicate_match_duration_seconds",
            "Time it takes to match the predicates and select a stub",
            &ImposterMetrics::match_duration);
  counter("mb_no_match_total", "Number of times no stub matched the request",
          &ImposterMetrics::no_match);
  counter("mb_request_total", "Number of requests to the imposter", &ImposterMetrics::requests);
  histogram("mb_response_generation_duration_seconds",
            "Time it takes to generate the response from a stub",
            &ImposterMetrics::response_duration);
  counter("mb_blocked_ip_total",
          "Number of times a connection was blocked from a non-whitelisted IP address",
          &ImposterMetrics::blocked);
  return families;
}

std::string render_metrics(const std::vector<MetricsSource>& imposters) {
  std::string out;
  for (const auto& family : imposter_families(imposters)) {
    if (!out.empty()) out += "\n\n";
    out += family;
  }
  if (!out.empty()) out += "\n";
  return out;
}

}  // namespace rift
