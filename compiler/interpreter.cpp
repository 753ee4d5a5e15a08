#include "compiler/interpreter.h"

#include <array>
#include <limits>

namespace rift {
namespace {

const plan::Leaf* find_leaf(const plan::MethodNode& node, std::string_view path) {
  auto it = node.by_path.find(path);
  return it == node.by_path.end() ? nullptr : &it->second;
}

}  // namespace

int Interpreter::match(RequestContext& context) const {
  const plan::Tree& tree = *tree_;
  const Request& request = context.request();

  // The (up to) four leaves this request can reach; each holds candidates in stub order and no
  // stub is in two of them, so merging by index visits candidates in Mountebank's order.
  std::array<const plan::Leaf*, 4> leaves{};
  auto method = tree.by_method.find(std::string_view(request.method));
  if (method != tree.by_method.end()) {
    leaves[0] = find_leaf(method->second, request.path);
    leaves[1] = &method->second.any_path;
  }
  leaves[2] = find_leaf(tree.any_method, request.path);
  leaves[3] = &tree.any_method.any_path;

  std::array<size_t, 4> next{};
  for (;;) {
    int best_list = -1;
    int best_stub = std::numeric_limits<int>::max();
    for (int list = 0; list < 4; ++list) {
      const plan::Leaf* leaf = leaves[list];
      if (leaf == nullptr || next[list] >= leaf->candidates.size()) continue;
      const int stub = leaf->candidates[next[list]].stub_index;
      if (stub < best_stub) {
        best_stub = stub;
        best_list = list;
      }
    }
    if (best_list < 0) return kNoMatch;

    const plan::Candidate& candidate = leaves[best_list]->candidates[next[best_list]++];
    bool all_hold = true;
    for (int predicate : candidate.residual) {
      if (!tree.predicates[predicate].evaluate(context)) {
        all_hold = false;
        break;
      }
    }
    if (all_hold) return candidate.stub_index;
  }
}

}  // namespace rift
