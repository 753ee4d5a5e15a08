// Walks plan::Tree v2 (see plan.h and docs/planner.md).
//
// A request reaches a handful of cells: in the node of its method and in the any-method node,
// the exact-path cell, every prefix cell its path starts with, and the any-path cell. Each cell
// offers its rest leaf and, per value index, the leaves of the request's values. Every leaf is
// sorted by stub index and no stub is in two leaves, so a k-way merge by stub index visits the
// reachable stubs in Mountebank's order, and the first whose residual checks hold wins.
//
// Value indexes are looked up lazily: one whose lowest stub lies beyond the merge's next
// candidate is left alone, so a request answered early never computes request values at all.
#include "compiler/interpreter.h"

#include <limits>
#include <vector>

#include "compiler/plan_walk.h"

namespace rift {
namespace {

struct Cursor {
  const plan::Candidate* next;
  const plan::Candidate* end;
};

// Reused across requests on one thread, so matching allocates nothing once warm.
struct Scratch {
  std::vector<Cursor> cursors;
  std::vector<const plan::ValueIndex*> pending;
};

void add_leaf(const plan::Leaf& leaf, std::vector<Cursor>& cursors) {
  if (leaf.candidates.empty()) return;
  const plan::Candidate* begin = leaf.candidates.data();
  cursors.push_back(Cursor{begin, begin + leaf.candidates.size()});
}

void expand(const plan::ValueIndex& index, RequestContext& context, std::vector<Cursor>& cursors) {
  for (const std::string& value : plan::request_values(context, index.field, index.key)) {
    auto leaf = index.by_value.find(value);
    if (leaf != index.by_value.end()) add_leaf(leaf->second, cursors);
  }
}

bool residuals_hold(const plan::Tree& tree, const plan::Candidate& candidate,
                    RequestContext& context) {
  for (int predicate : candidate.residual) {
    if (!tree.predicates[predicate].evaluate(context)) return false;
  }
  return true;
}

}  // namespace

int Interpreter::match(RequestContext& context) const {
  const plan::Tree& tree = *tree_;
  const Request& request = context.request();
  std::string method_scratch;
  std::string path_scratch;
  const std::string_view method = plan::lookup_text(request.method, method_scratch);
  const std::string_view path = plan::lookup_text(request.path, path_scratch);

  thread_local Scratch scratch;
  std::vector<Cursor>& cursors = scratch.cursors;
  std::vector<const plan::ValueIndex*>& pending = scratch.pending;
  cursors.clear();
  pending.clear();
  auto gather = [&](const plan::Cell& cell, plan::CellKind, std::string_view) {
    add_leaf(cell.rest, cursors);
    for (const plan::ValueIndex& index : cell.indexes) pending.push_back(&index);
  };
  auto node = tree.by_method.find(method);
  if (node != tree.by_method.end()) plan::for_each_cell(node->second, path, gather);
  plan::for_each_cell(tree.any_method, path, gather);

  for (;;) {
    size_t best = cursors.size();
    int best_stub = std::numeric_limits<int>::max();
    for (size_t i = 0; i < cursors.size(); ++i) {
      if (cursors[i].next->stub_index < best_stub) {
        best_stub = cursors[i].next->stub_index;
        best = i;
      }
    }
    // Any index that may hold an earlier stub joins the merge before the next candidate runs.
    bool expanded = false;
    for (size_t i = 0; i < pending.size();) {
      if (pending[i]->first_stub < best_stub) {
        expand(*pending[i], context, cursors);
        pending[i] = pending.back();
        pending.pop_back();
        expanded = true;
      } else {
        ++i;
      }
    }
    if (expanded) continue;
    if (best == cursors.size()) return kNoMatch;

    const plan::Candidate& candidate = *cursors[best].next++;
    if (cursors[best].next == cursors[best].end) {
      cursors[best] = cursors.back();
      cursors.pop_back();
    }
    if (residuals_hold(tree, candidate, context)) return candidate.stub_index;
  }
}

}  // namespace rift
