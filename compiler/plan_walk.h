// The scopes a request reaches and the cells of one method node its path reaches, shared by the
// interpreter and explain so that the two cannot walk the tree differently.
#pragma once

#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include "compiler/plan.h"

namespace rift::plan {

enum class CellKind { kExact, kPrefix, kSubstring, kAny };

// Calls visit(const Scope&, const std::string* space) for the global scope (space null), then
// for the scope of the request's flow id, if any stub lives in that space (docs/spaces.md).
template <typename Visit>
void for_each_scope(const Tree& tree, const std::string& flow_id, Visit&& visit) {
  visit(static_cast<const Scope&>(tree), static_cast<const std::string*>(nullptr));
  if (tree.by_space.empty()) return;
  auto space = tree.by_space.find(flow_id);
  if (space != tree.by_space.end()) visit(space->second, &space->first);
}

// Calls visit(const Cell&, CellKind, std::string_view key) for the exact-path cell, every
// prefix cell whose key starts `path` (shortest first: one hash lookup per distinct prefix
// length, a trie flattened by depth), every substring cell whose literal the path contains (one
// Aho–Corasick scan) and the any-path cell. `path` is the lookup_text of the
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
  if (!node.by_substring.literals.empty()) {
    // A literal that occurs twice in the path is visited once.
    std::array<int32_t, 16> seen{};
    size_t seen_count = 0;
    std::vector<int32_t> more_seen;
    node.by_substring.automaton.scan(path, [&](int32_t id) {
      const auto end = seen.begin() + static_cast<std::ptrdiff_t>(seen_count);
      if (std::find(seen.begin(), end, id) != end ||
          std::find(more_seen.begin(), more_seen.end(), id) != more_seen.end()) {
        return;
      }
      if (seen_count < seen.size()) {
        seen[seen_count++] = id;
      } else {
        more_seen.push_back(id);
      }
      const auto at = static_cast<size_t>(id);
      visit(node.by_substring.cells[at], CellKind::kSubstring,
            std::string_view(node.by_substring.literals[at]));
    });
  }
  visit(node.any_path, CellKind::kAny, std::string_view());
}

}  // namespace rift::plan
