// explain: which stub answers a request, how the decision tree got there and, on a miss, the
// closest stubs with the first predicate clause each one failed and why (docs/explain.md).
//
// Needs nothing but the tree, the stubs it was built from and the request, so `riftc explain`
// and the server's POST /imposters/{port}/explain share it. Every verdict comes from
// PreparedPredicate, the interpreter's own semantics, so an explanation cannot disagree with
// what the server does.
//
// Report shape (ordered JSON):
//   {
//     "request": {"method", "path", "query", "headers", "body"?, "form"?},  // as predicates see it
//     "matched": <stub index> | null,
//     "path": [                     // the walk through plan::Tree, in order
//       {"step": "method", "value": "GET", "result": "hit" | "fallback"},
//       {"step": "path", "method": "GET" | "*", "value": "/users", "result": "hit" | "fallback",
//        "candidates": <reached in the exact-path cell>,
//        "prefixes"?: [{"prefix": "/api/", "candidates": <reached in that cell>}],
//        "anyPathCandidates": <reached in the any-path cell>},
//       {"step": "value", "cell": "GET /users", "field": "query" | "headers" | "body",
//        "key": "page", "values": [<the request's folded values>], "candidates": n},
//       {"step": "candidate", "stub": i, "leaf": "GET /users" | "GET /api/*" | "GET *" | ...,
//        "result": "matched" | "failed" | "error", "index"?: <failed predicate of the stub>,
//        "reason"?: "...", "error"?: {...}}
//     ],
//     "candidatesVisited": n,
//     "nearMisses": [               // on a miss only (empty when a stub matched)
//       {"stub": i, "passedClauses": m, "candidate": <did the tree offer this stub?>,
//        "failedClause": {"predicate": <the stub's predicate JSON>, "index": k,
//                         "clause": <the one-field predicate that failed>,
//                         "field": "query.page", "expected": ..., "actual"?: ...,
//                         "reason": "equals: expected '1' but the request has '2'",
//                         "alternatives"?: [...], "error"?: {...}}}
//     ],
//     "error"?: {...}               // an EvalError stopped the walk (the server answers 500)
//   }
//
// A *clause* is one predicate of a stub; inside a field operator, each expected field and, for
// object values (query, headers, JSON bodies), each nested key; `and` contributes its children's
// clauses, while `or`, `not` and `inject` are one clause each. `actual` is absent when the
// request has no such value.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "compiler/ir.h"
#include "compiler/plan.h"
#include "compiler/request.h"
#include "compiler/scenarios.h"

namespace rift {

struct ExplainOptions {
  size_t near_misses = 3;  // how many of the closest stubs to report on a miss
  // Where scenario gates read the request's flow's states; null: every scenario is Started.
  ScenarioStates* scenarios = nullptr;
};

// `tree` must have been built from `stubs` by plan::build.
ir::Json explain(const plan::Tree& tree, const std::vector<ir::Stub>& stubs,
                 const Request& request);
ir::Json explain(const plan::Tree& tree, const std::vector<ir::Stub>& stubs, const Request& request,
                 const ExplainOptions& options);

// A human-readable rendering of an explain() report.
std::string explain_to_text(const ir::Json& report);

}  // namespace rift
