// Walks plan::Tree v2 (see plan.h and docs/planner.md).
//
// A request reaches a handful of cells, in the global scope and in its space's (docs/spaces.md):
// in the node of its method and in the any-method node, the exact-path cell, every prefix cell
// its path starts with, and the any-path cell. Each cell offers its rest leaf and, per value
// index, the leaves of the request's values. Every leaf is sorted by stub index and no stub is in
// two leaves, so a k-way merge by stub index visits the reachable stubs in Mountebank's order, and
// the first whose residual checks hold wins.
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

// A short list on the stack; a request that reaches more (many prefixes, many repeated values)
// spills to the heap.
template <typename T, size_t N>
class SmallList {
 public:
  SmallList() = default;
  SmallList(const SmallList&) = delete;
  SmallList& operator=(const SmallList&) = delete;
  size_t size() const { return size_; }
  T& operator[](size_t i) { return data_[i]; }
  void push_back(T value) {
    if (size_ == N && data_ == fixed_) {
      spilled_.assign(fixed_, fixed_ + N);
      spilled_.reserve(2 * N);
      data_ = spilled_.data();
    }
    if (data_ != fixed_) {
      spilled_.push_back(value);
      data_ = spilled_.data();
    } else {
      fixed_[size_] = value;
    }
    ++size_;
  }
  // Order is not kept: the merge only ever looks for the smallest head.
  void remove(size_t i) {
    data_[i] = data_[--size_];
    if (data_ != fixed_) spilled_.pop_back();
  }

 private:
  T fixed_[N];
  T* data_ = fixed_;
  size_t size_ = 0;
  std::vector<T> spilled_;
};

using Cursors = SmallList<Cursor, 16>;
using Pending = SmallList<const plan::ValueIndex*, 8>;

void add_leaf(const plan::Leaf& leaf, Cursors& cursors) {
  if (leaf.candidates.empty()) return;
  const plan::Candidate* begin = leaf.candidates.data();
  cursors.push_back(Cursor{begin, begin + leaf.candidates.size()});
}

void expand(const plan::ValueIndex& index, RequestContext& context, Cursors& cursors) {
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
  std::string scratch;
  const std::string_view path = plan::lookup_text(request.path, scratch);

  Cursors cursors;
  Pending pending;
  auto gather = [&](const plan::Cell& cell, plan::CellKind, std::string_view) {
    add_leaf(cell.rest, cursors);
    for (const plan::ValueIndex& index : cell.indexes) pending.push_back(&index);
  };
  std::string method_scratch;
  plan::for_each_scope(tree, request.flow_id, [&](const plan::Scope& scope, const std::string*) {
    if (!scope.by_method.empty()) {
      auto node = scope.by_method.find(plan::lookup_text(request.method, method_scratch));
      if (node != scope.by_method.end()) plan::for_each_cell(node->second, path, gather);
    }
    plan::for_each_cell(scope.any_method, path, gather);
  });

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
        pending.remove(i);
        expanded = true;
      } else {
        ++i;
      }
    }
    if (expanded) continue;
    if (best == cursors.size()) return kNoMatch;

    const plan::Candidate& candidate = *cursors[best].next++;
    if (cursors[best].next == cursors[best].end) cursors.remove(best);
    if (residuals_hold(tree, candidate, context)) return candidate.stub_index;
  }
}

}  // namespace rift
