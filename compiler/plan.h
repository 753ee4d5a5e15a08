// plan::Tree — the decision tree for one imposter's stub list (planner v1).
//
// Mountebank tries stubs in order and the first whose predicates all hold wins. The tree keeps
// that order while dispatching. Every stub lands in exactly one of four kinds of leaf, by what its
// predicates pin down: (method, path), (method, any path), (any method, path) or (any, any).
// A request looks up its method and its case-folded path by hash, which yields at most four
// leaves; their candidates (each list in stub order) are merged by stub index and the residual
// predicates, those the dispatch did not already decide, run in that order. So a request for the
// 310th stub looks at one or two candidates, not 309 others, and no stub is copied into many
// leaves however the stubs mix wildcards and exact keys.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "compiler/errors.h"
#include "compiler/ir.h"
#include "compiler/predicate_eval.h"

namespace rift::plan {

struct Candidate {
  int stub_index = -1;
  // Indexes into Tree::predicates of the checks still to run, in the stub's own order.
  std::vector<int> residual;
};

struct Leaf {
  std::vector<Candidate> candidates;  // ascending stub_index
};

// Hashes and compares ASCII case-insensitively, so a request's path is looked up without first
// building a lower-cased copy. Keys are stored case-folded.
struct FoldedHash {
  using is_transparent = void;
  size_t operator()(std::string_view text) const;
};
struct FoldedEqual {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const;
};
using FoldedMap = std::unordered_map<std::string, Leaf, FoldedHash, FoldedEqual>;

struct MethodNode {
  FoldedMap by_path;  // key: path, case-folded
  Leaf any_path;
};

struct Tree {
  std::unordered_map<std::string, MethodNode, FoldedHash, FoldedEqual> by_method;
  MethodNode any_method;
  std::vector<PreparedPredicate> predicates;  // every residual predicate, owned here
  // For each stub: the (method, path) keys it was dispatched on, for inspection and tests.
  struct StubKeys {
    std::optional<std::string> method;  // unset: any method
    std::optional<std::string> path;    // unset: any path (case-folded)
  };
  std::vector<StubKeys> stub_keys;
  size_t stub_count = 0;
};

// Lowers a stub list into a tree. Fails with the first predicate that cannot be prepared.
std::variant<std::shared_ptr<const Tree>, MbError> build(const std::vector<ir::Stub>& stubs);

}  // namespace rift::plan
