// plan::Tree — the decision tree for one imposter's stub list (planner v1).
//
// Mountebank tries stubs in order and the first whose predicates all hold wins. The tree keeps
// that order while dispatching: a request first selects a method node (by exact method, else the
// "any method" node), then a leaf by exact path (hash lookup, else the "any path" leaf). A leaf
// lists, in stub order, only the stubs that can still match that (method, path), each with the
// residual predicates the dispatch did not already decide. So a request for the 310th stub looks
// at one or two candidates, not 309 others.
#pragma once

#include <memory>
#include <string>
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

struct MethodNode {
  std::unordered_map<std::string, Leaf> by_path;  // key: path, case-folded
  Leaf any_path;
};

struct Tree {
  std::unordered_map<std::string, MethodNode> by_method;  // key: method, upper-cased
  MethodNode any_method;
  std::vector<PreparedPredicate> predicates;  // every residual predicate, owned here
  // For each stub: the (method, path) keys it was dispatched on, for inspection and tests.
  struct StubKeys {
    std::vector<std::string> methods;  // empty: any
    std::vector<std::string> paths;    // empty: any
  };
  std::vector<StubKeys> stub_keys;
  size_t stub_count = 0;
};

// Lowers a stub list into a tree. Fails with the first predicate that cannot be prepared.
std::variant<std::shared_ptr<const Tree>, MbError> build(const std::vector<ir::Stub>& stubs);

}  // namespace rift::plan
