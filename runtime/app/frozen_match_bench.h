// `BIN --match-bench REQUESTS.json [--iterations N]`: a frozen mock times its own compiled
// matcher against the interpreter of the same tree, in-process, on the requests given, and
// checks that both pick the same stub for each. bench/scale.py uses it to measure ns per match
// for imposters of 10 to 100,000 stubs without the network in the way.
//
// REQUESTS.json: {"port": P, "requests": [{"method", "path", "query"?: {k: v|[v..]},
//                  "headers"?: {k: v}, "body"?: "..."}]}
#pragma once

#include <string>

#include "runtime/app/frozen_main.h"

namespace rift {

// Prints one JSON object to stdout; returns the exit code (1 when the tiers disagree).
int run_match_bench(const FrozenBuild& build, const std::string& requests_file, long iterations);

}  // namespace rift
