// The families prom-client's collectDefaultMetrics({prefix: 'mb_'}) registers for Mountebank
// 2.9.1 (prom-client 14.2), with the same names, HELP texts, types, label names and order, valued
// from what Rift can measure: the mb_process_* ones from /proc/self, the mb_nodejs_* ones from
// the nearest honest stand-in (docs/metrics.md, "Mountebank's process series", says which).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/metrics/heap_sample.h"
#include "runtime/metrics/proc_self.h"

namespace rift::metrics {

// The Node.js version mb_nodejs_version_info reports: the one Mountebank 2.9.1 ran on when its
// series were captured (tests/diff/metrics/expected_shapes.json).
inline constexpr std::string_view kNodeVersion = "v20.20.2";

struct DefaultSeriesInput {
  ProcessSample process;
  HeapSample heap;
  int64_t listeners = 0;  // listening sockets: the admin port's and every imposter's
};
DefaultSeriesInput sample_default_series(int64_t listeners);

// Appends one block per family (HELP, TYPE, then a line per series; no trailing newline).
void default_families(std::vector<std::string>& families, const DefaultSeriesInput& input);

// A number as JavaScript prints it (shortest round trip; integers without a fraction).
std::string js_number(double value);

}  // namespace rift::metrics
