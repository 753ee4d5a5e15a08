// Renders a plan::Tree and its analysis findings for people and tools: JSON (riftc inspect
// --format json, and later GET /imposters/{port}/plan), an indented text tree, and Graphviz.
// Every map is walked in sorted key order so the output is deterministic.
#pragma once

#include <string>
#include <vector>

#include "compiler/analysis.h"
#include "compiler/ir.h"
#include "compiler/plan.h"

namespace rift {

// How many candidates the tree can make a request look at.
struct CandidateStats {
  size_t leaves = 0;      // non-empty leaves (rest leaves and value leaves)
  size_t max_leaf = 0;    // the largest leaf
  size_t worst_case = 0;  // most candidates one request can reach (repeating indexed keys)
  // The same for a request with one value per indexed field: each value index adds its
  // largest leaf instead of all of them.
  size_t worst_case_one_value = 0;
};
CandidateStats candidate_stats(const plan::Tree& tree);

// {"stubs": N,
//  "tree": {"methods": {"GET": NODE}, "anyMethod": NODE},
//  "candidateSets": {"leaves": .., "max": .., "worstCase": .., "worstCaseOneValue": ..},
//  "findings": [{"kind": "shadowed"|"duplicate", "stub": j, "by": i, "reason": "..."}]}
// NODE = {"paths": {"/x": CELL}, "prefixes"?: {"/api/": CELL}, "anyPath"?: CELL};
// CELL = {"size": n, "candidates": [{"stub": i, "residual": [<Mountebank predicate JSON>],
//          "value"?: {"field": "query"|"headers"|"body", "key": k, "value": v}}],
//         "indexes"?: [{"field": .., "key": .., "values": distinct values, "largest": n}]}.
// A cell lists all its candidates in stub order; "value" says which value routes one. Empty
// cells are left out.
ir::Json plan_to_json(const plan::Tree& tree, const std::vector<ir::Stub>& stubs,
                      const std::vector<analysis::Finding>& findings);

// An indented tree naming each candidate stub and its residual predicates, then the findings
// (the first 100, then a count of the rest).
std::string plan_to_text(const plan::Tree& tree, const std::vector<ir::Stub>& stubs,
                         const std::vector<analysis::Finding>& findings);

// A Graphviz digraph: request -> method -> path cell -> candidate stubs (an edge labelled with
// the value that routes a stub through a value index), with a dashed edge from
// every shadowed or duplicate stub to the stub responsible.
std::string plan_to_dot(const plan::Tree& tree, const std::vector<ir::Stub>& stubs,
                        const std::vector<analysis::Finding>& findings);

}  // namespace rift
