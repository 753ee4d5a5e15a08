// The cells of one method node that a request path reaches, shared by the interpreter and
// explain so that the two cannot walk the tree differently.
#pragma once

#include <string_view>

#include "compiler/plan.h"

namespace rift::plan {

enum class CellKind { kExact, kPrefix, kAny };

// Calls visit(const Cell&, CellKind, std::string_view key) for the exact-path cell, every
// prefix cell whose key starts `path` (shortest first: one hash lookup per distinct prefix
// length, a trie flattened by depth) and the any-path cell. `path` is the lookup_text of the
// request path.
template <typename Visit>
void for_each_cell(const MethodNode& node, std::string_view path, Visit&& visit) {
  if (!node.by_path.empty()) {
    auto exact = node.by_path.find(path);
    if (exact != node.by_path.end()) visit(exact->second, CellKind::kExact, exact->first);
  }
  for (size_t length : node.prefix_lengths) {
    if (length > path.size()) break;
    auto prefix = node.by_prefix.find(path.substr(0, length));
    if (prefix != node.by_prefix.end()) visit(prefix->second, CellKind::kPrefix, prefix->first);
  }
  visit(node.any_path, CellKind::kAny, std::string_view());
}

}  // namespace rift::plan
