#include "runtime/imposter/metrics.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace rift {
namespace {

void header(std::string& out, const char* name, const char* help, const char* type) {
  out.append("# HELP ").append(name).append(" ").append(help).append("\n");
  out.append("# TYPE ").append(name).append(" ").append(type).append("\n");
}

}  // namespace

std::string render_metrics(const std::vector<MetricsSource>& imposters) {
  std::string out;
  // Series appear once an imposter has been called, as with prom-client's labelled metrics.
  std::vector<MetricsSource> called;
  for (const auto& source : imposters) {
    if (source.metrics->requests.load() > 0 || source.metrics->blocked.load() > 0) {
      called.push_back(source);
    }
  }
  auto counter = [&](const char* name, const char* help, auto member) {
    header(out, name, help, "counter");
    for (const auto& source : called) {
      const uint64_t value = (source.metrics->*member).load();
      if (value > 0) {
        out += std::string(name) + "{imposter=\"" + source.label + "\"} " + std::to_string(value) +
               "\n";
      }
    }
    out += "\n";
  };
  header(out, "mb_predicate_match_duration_seconds",
         "Time it takes to match the predicates and select a stub", "histogram");
  for (const auto& source : called) {
    if (source.metrics->match_duration.count() == 0) continue;
    source.metrics->match_duration.render(out, "mb_predicate_match_duration_seconds", source.label);
  }
  out += "\n";
  counter("mb_no_match_total", "Number of times no stub matched the request",
          &ImposterMetrics::no_match);
  counter("mb_request_total", "Number of requests to the imposter", &ImposterMetrics::requests);
  header(out, "mb_response_generation_duration_seconds",
         "Time it takes to generate the response from a stub", "histogram");
  for (const auto& source : called) {
    if (source.metrics->response_duration.count() == 0) continue;
    source.metrics->response_duration.render(out, "mb_response_generation_duration_seconds",
                                             source.label);
  }
  out += "\n";
  counter("mb_blocked_ip_total",
          "Number of times a connection was blocked from a non-whitelisted IP address",
          &ImposterMetrics::blocked);
  return out;
}

}  // namespace rift
