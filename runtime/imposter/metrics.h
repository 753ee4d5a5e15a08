// Mountebank's per-imposter Prometheus series (docs/mountebank-semantics.md §1.7), kept with
// relaxed atomics in per-thread shards so the hot path neither locks nor shares a cache line
// between workers: request and no-match counts, blocked clients, and the two latency histograms
// (predicate matching, response generation) with prom-client's bucket bounds. Reads sum the shards.
#pragma once

#include <string>
#include <vector>

#include "runtime/base/histogram.h"
#include "runtime/base/sharded_counter.h"

namespace rift {

struct ImposterMetrics {
  Histogram<6> match_duration{{0.01, 0.05, 0.1, 0.2, 0.5, 1}};
  Histogram<10> response_duration{{0.01, 0.05, 0.1, 0.2, 0.5, 1, 3, 5, 10, 30}};
  ShardedCounter requests;  // every request that passed the client filter
  ShardedCounter no_match;
  ShardedCounter blocked;
};

// The exposition text for every imposter: `imposters` is a list of (label, metrics) pairs where
// label is Mountebank's log scope, e.g. "[http:4545 name] ".
struct MetricsSource {
  std::string label;
  const ImposterMetrics* metrics;
};
// Mountebank's five imposter families, one block each (HELP, TYPE, then a line per series, no
// trailing newline), in the order Mountebank registers them. None until the server has made its
// first imposter (`any_made`): Mountebank registers them then and keeps them from then on.
std::vector<std::string> imposter_families(const std::vector<MetricsSource>& imposters,
                                           bool any_made = true);
// The blocks joined as prom-client joins them: a blank line between, a newline at the end.
std::string render_metrics(const std::vector<MetricsSource>& imposters);

}  // namespace rift
