// plan::Tree to JSON, text and Graphviz. The three renderers share one sorted walk of the tree.
#include "compiler/plan_render.h"

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>

#include "compiler/plan_walk.h"
#include "compiler/predicate_json.h"

namespace rift {
namespace {

// One candidate of a cell, with the value index entry that routes it (none: the rest leaf).
struct Routed {
  const plan::Candidate* candidate = nullptr;
  const plan::ValueIndex* index = nullptr;
  const std::string* value = nullptr;
};

struct CellView {
  plan::CellKind kind = plan::CellKind::kAny;
  std::string key;  // the exact path or the prefix; empty for any path
  const plan::Cell* cell = nullptr;
  std::vector<Routed> candidates;  // all of the cell's, in stub order
};
struct MethodView {
  std::optional<std::string> space;   // unset: the global scope
  std::optional<std::string> method;  // unset: any method
  std::vector<CellView> cells;        // sorted exact paths, sorted prefixes, the any-path cell
};

CellView cell_view(plan::CellKind kind, std::string key, const plan::Cell& cell) {
  CellView view{kind, std::move(key), &cell, {}};
  for (const auto& candidate : cell.rest.candidates) view.candidates.push_back({&candidate});
  for (const auto& index : cell.indexes) {
    for (const auto& [value, leaf] : index.by_value) {
      for (const auto& candidate : leaf.candidates) {
        view.candidates.push_back({&candidate, &index, &value});
      }
    }
  }
  std::sort(view.candidates.begin(), view.candidates.end(), [](const Routed& a, const Routed& b) {
    return a.candidate->stub_index < b.candidate->stub_index;
  });
  return view;
}

void add_cells(const plan::FoldedMap<plan::Cell>& cells, plan::CellKind kind, MethodView& view) {
  std::vector<std::string> keys;
  for (const auto& [key, cell] : cells) keys.push_back(key);
  std::sort(keys.begin(), keys.end());
  for (const auto& key : keys) {
    CellView cell = cell_view(kind, key, cells.find(key)->second);
    if (!cell.candidates.empty()) view.cells.push_back(std::move(cell));
  }
}

MethodView view_of(const std::optional<std::string>& space, std::optional<std::string> method,
                   const plan::MethodNode& node) {
  MethodView view{space, std::move(method), {}};
  add_cells(node.by_path, plan::CellKind::kExact, view);
  add_cells(node.by_prefix, plan::CellKind::kPrefix, view);
  std::vector<size_t> order(node.by_substring.literals.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return node.by_substring.literals[a] < node.by_substring.literals[b];
  });
  for (size_t id : order) {
    CellView cell = cell_view(plan::CellKind::kSubstring, node.by_substring.literals[id],
                              node.by_substring.cells[id]);
    if (!cell.candidates.empty()) view.cells.push_back(std::move(cell));
  }
  CellView any = cell_view(plan::CellKind::kAny, "", node.any_path);
  if (!any.candidates.empty()) view.cells.push_back(std::move(any));
  return view;
}

// Methods in sorted order, then the any-method node; nodes without candidates are left out.
void add_scope_views(const plan::Scope& scope, const std::optional<std::string>& space,
                     std::vector<MethodView>& out) {
  std::vector<std::string> methods;
  for (const auto& [method, node] : scope.by_method) methods.push_back(method);
  std::sort(methods.begin(), methods.end());
  for (const auto& method : methods) {
    MethodView view = view_of(space, method, scope.by_method.find(method)->second);
    if (!view.cells.empty()) out.push_back(std::move(view));
  }
  MethodView any = view_of(space, std::nullopt, scope.any_method);
  if (!any.cells.empty()) out.push_back(std::move(any));
}

std::vector<std::string> sorted_spaces(const plan::Tree& tree) {
  std::vector<std::string> spaces;
  for (const auto& [space, scope] : tree.by_space) spaces.push_back(space);
  std::sort(spaces.begin(), spaces.end());
  return spaces;
}

// The global scope's nodes, then each space's, spaces in sorted order.
std::vector<MethodView> sorted_view(const plan::Tree& tree) {
  std::vector<MethodView> out;
  add_scope_views(tree, std::nullopt, out);
  for (const auto& space : sorted_spaces(tree)) {
    add_scope_views(tree.by_space.find(space)->second, space, out);
  }
  return out;
}

// Every candidate in the cell, and the most one request with one value per index reaches.
size_t cell_size(const plan::Cell& cell) {
  size_t size = cell.rest.candidates.size();
  for (const auto& index : cell.indexes) {
    for (const auto& [value, leaf] : index.by_value) size += leaf.candidates.size();
  }
  return size;
}
size_t largest_leaf(const plan::ValueIndex& index) {
  size_t largest = 0;
  for (const auto& [value, leaf] : index.by_value) {
    largest = std::max(largest, leaf.candidates.size());
  }
  return largest;
}
size_t cell_size_one_value(const plan::Cell& cell) {
  size_t size = cell.rest.candidates.size();
  for (const auto& index : cell.indexes) size += largest_leaf(index);
  return size;
}

ir::Json residual_json(const plan::Tree& tree, const plan::Candidate& candidate) {
  ir::Json out = ir::Json::array();
  for (int index : candidate.residual) {
    out.push_back(predicate_to_json(tree.predicates[static_cast<size_t>(index)].source()));
  }
  return out;
}

ir::Json cell_json(const plan::Tree& tree, const CellView& view) {
  ir::Json candidates = ir::Json::array();
  for (const Routed& routed : view.candidates) {
    ir::Json entry = ir::Json::object();
    entry["stub"] = routed.candidate->stub_index;
    entry["residual"] = residual_json(tree, *routed.candidate);
    if (routed.index != nullptr) {
      entry["value"] = ir::Json{{"field", plan::field_name(routed.index->field)},
                                {"key", routed.index->key},
                                {"value", *routed.value}};
    }
    candidates.push_back(std::move(entry));
  }
  ir::Json out = ir::Json::object();
  out["size"] = view.candidates.size();
  out["candidates"] = std::move(candidates);
  if (!view.cell->indexes.empty()) {
    ir::Json indexes = ir::Json::array();
    for (const auto& index : view.cell->indexes) {
      indexes.push_back(ir::Json{{"field", plan::field_name(index.field)},
                                 {"key", index.key},
                                 {"values", index.by_value.size()},
                                 {"largest", largest_leaf(index)}});
    }
    out["indexes"] = std::move(indexes);
  }
  return out;
}

std::string method_label(const MethodView& view) {
  const std::string method = view.method ? *view.method : "(any method)";
  return view.space ? "space " + *view.space + ": " + method : method;
}
std::string cell_label(const CellView& view) {
  switch (view.kind) {
    case plan::CellKind::kExact:
      return view.key;
    case plan::CellKind::kPrefix:
      return view.key + "*";
    case plan::CellKind::kSubstring:
      return "*" + view.key + "*";
    case plan::CellKind::kAny:
      break;
  }
  return "(any path)";
}
// "query page=2", "headers x-id=a", "body $.user.id=7".
std::string route_label(const Routed& routed) {
  return std::string(plan::field_name(routed.index->field)) + " " + routed.index->key + "=" +
         *routed.value;
}
std::string candidates_label(size_t size) {
  return std::to_string(size) + (size == 1 ? " candidate" : " candidates");
}
// "(3 candidates; by query page: 2 values)".
std::string cell_summary(const CellView& view) {
  std::string out = "(" + candidates_label(view.candidates.size());
  for (const auto& index : view.cell->indexes) {
    const size_t values = index.by_value.size();
    out += "; by " + std::string(plan::field_name(index.field)) + " " + index.key + ": " +
           std::to_string(values) + (values == 1 ? " value" : " values");
  }
  return out + ")";
}

std::string summary(const plan::Tree& tree, size_t stubs) {
  const CandidateStats stats = candidate_stats(tree);
  std::ostringstream out;
  out << stubs << (stubs == 1 ? " stub" : " stubs") << " in " << stats.leaves
      << (stats.leaves == 1 ? " leaf" : " leaves") << "; largest leaf " << stats.max_leaf
      << "; a request visits at most " << candidates_label(stats.worst_case);
  if (stats.worst_case_one_value != stats.worst_case) {
    out << " (" << stats.worst_case_one_value << " with one value per indexed key)";
  }
  return out.str();
}

// The cells a request for `path` reaches in the given nodes, summed with `size`.
template <typename Size>
size_t reached(const std::vector<const plan::MethodNode*>& nodes, std::string_view path,
               Size size) {
  size_t total = 0;
  for (const plan::MethodNode* node : nodes) {
    plan::for_each_cell(*node, path, [&](const plan::Cell& cell, plan::CellKind, std::string_view) {
      total += size(cell);
    });
  }
  return total;
}

// The most a request can reach with the method nodes `nodes` (its method's and the
// any-method node). Only paths that are keys matter: any other path reaches the cells of its
// longest prefix key, which that key itself also reaches, plus no exact cell.
template <typename Size>
size_t worst_over_paths(const std::vector<const plan::MethodNode*>& nodes, Size size) {
  size_t best = reached(nodes, "", size);
  for (const plan::MethodNode* node : nodes) {
    for (const auto* cells : {&node->by_path, &node->by_prefix}) {
      for (const auto& [key, cell] : *cells) best = std::max(best, reached(nodes, key, size));
    }
    // A path can hold several literals at once; each literal alone is tried, so this is a
    // lower bound when substrings are in play.
    for (const auto& literal : node->by_substring.literals) {
      best = std::max(best, reached(nodes, literal, size));
    }
  }
  return best;
}

// Graphviz double-quoted string contents.
std::string dot_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

constexpr size_t kTextFindingCap = 100;  // the full list is in the JSON form

}  // namespace

CandidateStats candidate_stats(const plan::Tree& tree) {
  CandidateStats stats;
  auto count = [&](const plan::Leaf& leaf) {
    if (leaf.candidates.empty()) return;
    ++stats.leaves;
    stats.max_leaf = std::max(stats.max_leaf, leaf.candidates.size());
  };
  auto count_cell = [&](const plan::Cell& cell) {
    count(cell.rest);
    for (const auto& index : cell.indexes) {
      for (const auto& [value, leaf] : index.by_value) count(leaf);
    }
  };
  auto count_node = [&](const plan::MethodNode& node) {
    for (const auto& [path, cell] : node.by_path) count_cell(cell);
    for (const auto& [prefix, cell] : node.by_prefix) count_cell(cell);
    for (const auto& cell : node.by_substring.cells) count_cell(cell);
    count_cell(node.any_path);
  };
  auto count_scope = [&](const plan::Scope& scope) {
    for (const auto& [method, node] : scope.by_method) count_node(node);
    count_node(scope.any_method);
  };
  count_scope(tree);
  for (const auto& [space, scope] : tree.by_space) count_scope(scope);

  // A request reaches the global scope and at most one space. With an unknown method it
  // reaches their any-method nodes only; with a known one, that method's nodes as well.
  std::vector<std::vector<const plan::MethodNode*>> combinations;
  auto add_combinations = [&](const plan::Scope* space) {
    std::vector<const plan::MethodNode*> any = {&tree.any_method};
    if (space != nullptr) any.push_back(&space->any_method);
    combinations.push_back(any);
    std::vector<std::string> methods;
    for (const auto& [method, node] : tree.by_method) methods.push_back(method);
    if (space != nullptr) {
      for (const auto& [method, node] : space->by_method) methods.push_back(method);
    }
    for (const auto& method : methods) {
      std::vector<const plan::MethodNode*> nodes = any;
      for (const plan::Scope* scope : {static_cast<const plan::Scope*>(&tree), space}) {
        if (scope == nullptr) continue;
        auto node = scope->by_method.find(method);
        if (node != scope->by_method.end()) nodes.push_back(&node->second);
      }
      combinations.push_back(std::move(nodes));
    }
  };
  add_combinations(nullptr);
  for (const auto& [space, scope] : tree.by_space) add_combinations(&scope);
  for (const auto& nodes : combinations) {
    stats.worst_case = std::max(stats.worst_case, worst_over_paths(nodes, cell_size));
    stats.worst_case_one_value =
        std::max(stats.worst_case_one_value, worst_over_paths(nodes, cell_size_one_value));
  }
  return stats;
}

namespace {

// {"methods": {...}, "anyMethod": {...}} of one scope's views.
ir::Json scope_json(const plan::Tree& tree, const std::vector<MethodView>& views) {
  ir::Json methods = ir::Json::object();
  ir::Json any_method = ir::Json::object();
  for (const MethodView& method : views) {
    ir::Json node = ir::Json::object();
    ir::Json paths = ir::Json::object();
    ir::Json prefixes = ir::Json::object();
    ir::Json substrings = ir::Json::object();
    for (const CellView& cell : method.cells) {
      if (cell.kind == plan::CellKind::kSubstring) substrings[cell.key] = cell_json(tree, cell);
      if (cell.kind == plan::CellKind::kExact) paths[cell.key] = cell_json(tree, cell);
      if (cell.kind == plan::CellKind::kPrefix) prefixes[cell.key] = cell_json(tree, cell);
      if (cell.kind == plan::CellKind::kAny) node["anyPath"] = cell_json(tree, cell);
    }
    node["paths"] = std::move(paths);
    if (!prefixes.empty()) node["prefixes"] = std::move(prefixes);
    if (!substrings.empty()) node["substrings"] = std::move(substrings);
    if (method.method) {
      methods[*method.method] = std::move(node);
    } else {
      any_method = std::move(node);
    }
  }
  ir::Json out = ir::Json::object();
  out["methods"] = std::move(methods);
  out["anyMethod"] = std::move(any_method);
  return out;
}

}  // namespace

ir::Json plan_to_json(const plan::Tree& tree, const std::vector<ir::Stub>& stubs,
                      const std::vector<analysis::Finding>& findings) {
  std::vector<MethodView> global;
  add_scope_views(tree, std::nullopt, global);
  ir::Json tree_json = scope_json(tree, global);
  if (!tree.by_space.empty()) {
    ir::Json spaces = ir::Json::object();
    for (const auto& space : sorted_spaces(tree)) {
      std::vector<MethodView> views;
      add_scope_views(tree.by_space.find(space)->second, space, views);
      spaces[space] = scope_json(tree, views);
    }
    tree_json["spaces"] = std::move(spaces);
  }

  const CandidateStats stats = candidate_stats(tree);
  ir::Json sets = ir::Json::object();
  sets["leaves"] = stats.leaves;
  sets["max"] = stats.max_leaf;
  sets["worstCase"] = stats.worst_case;
  sets["worstCaseOneValue"] = stats.worst_case_one_value;

  ir::Json list = ir::Json::array();
  for (const auto& finding : findings) {
    ir::Json entry = ir::Json::object();
    entry["kind"] = analysis::kind_name(finding.kind);
    entry["stub"] = finding.stub;
    entry["by"] = finding.by;
    entry["reason"] = finding.reason;
    list.push_back(std::move(entry));
  }

  ir::Json out = ir::Json::object();
  out["stubs"] = stubs.size();
  out["tree"] = std::move(tree_json);
  out["candidateSets"] = std::move(sets);
  out["findings"] = std::move(list);
  return out;
}

std::string plan_to_text(const plan::Tree& tree, const std::vector<ir::Stub>& stubs,
                         const std::vector<analysis::Finding>& findings) {
  std::ostringstream out;
  out << "plan: " << summary(tree, stubs.size()) << '\n';
  for (const MethodView& method : sorted_view(tree)) {
    out << method_label(method) << '\n';
    for (const CellView& cell : method.cells) {
      out << "  " << cell_label(cell) << "  " << cell_summary(cell) << '\n';
      for (const Routed& routed : cell.candidates) {
        out << "    stub " << routed.candidate->stub_index;
        if (routed.index != nullptr) out << "  when " << route_label(routed);
        if (routed.candidate->residual.empty()) {
          out << "  no residual checks";
        } else {
          out << "  if " << residual_json(tree, *routed.candidate).dump();
        }
        out << '\n';
      }
    }
  }
  if (findings.empty()) {
    out << "findings: none\n";
    return out.str();
  }
  out << "findings (" << findings.size() << "):\n";
  for (size_t i = 0; i < findings.size() && i < kTextFindingCap; ++i) {
    out << "  " << analysis::kind_name(findings[i].kind) << ": " << findings[i].reason << '\n';
  }
  if (findings.size() > kTextFindingCap) {
    out << "  ... and " << findings.size() - kTextFindingCap
        << " more (--format json lists them all)\n";
  }
  return out.str();
}

std::string plan_to_dot(const plan::Tree& tree, const std::vector<ir::Stub>& stubs,
                        const std::vector<analysis::Finding>& findings) {
  std::map<int, const analysis::Finding*> by_stub;
  for (const auto& finding : findings) by_stub[finding.stub] = &finding;

  std::ostringstream out;
  out << "digraph plan {\n"
      << "  rankdir=LR;\n"
      << "  node [shape=box, fontname=\"monospace\"];\n"
      << "  request [shape=oval, label=\"" << dot_escape("request\n" + summary(tree, stubs.size()))
      << "\"];\n";
  int method_id = 0;
  int cell_id = 0;
  for (const MethodView& method : sorted_view(tree)) {
    const std::string m = "m" + std::to_string(method_id++);
    out << "  " << m << " [label=\"" << dot_escape(method_label(method)) << "\"];\n"
        << "  request -> " << m << ";\n";
    for (const CellView& cell : method.cells) {
      const std::string c = "c" + std::to_string(cell_id++);
      std::string label = cell_label(cell) + "\n" + candidates_label(cell.candidates.size());
      for (const auto& index : cell.cell->indexes) {
        label += "\nby " + std::string(plan::field_name(index.field)) + " " + index.key;
      }
      out << "  " << c << " [label=\"" << dot_escape(label) << "\"];\n"
          << "  " << m << " -> " << c << ";\n";
      for (const Routed& routed : cell.candidates) {
        const int stub = routed.candidate->stub_index;
        const std::string s = "s" + std::to_string(stub);
        std::string stub_label = "stub " + std::to_string(stub);
        if (!routed.candidate->residual.empty()) {
          stub_label += "\n+" + std::to_string(routed.candidate->residual.size()) + " residual";
        }
        out << "  " << s << " [label=\"" << dot_escape(stub_label) << "\"";
        if (by_stub.count(stub) != 0) out << ", style=filled, fillcolor=\"#f4cccc\"";
        out << "];\n"
            << "  " << c << " -> " << s;
        if (routed.index != nullptr)
          out << " [label=\"" << dot_escape(route_label(routed)) << "\"]";
        out << ";\n";
      }
    }
  }
  for (const auto& [stub, finding] : by_stub) {
    out << "  s" << stub << " -> s" << finding->by << " [style=dashed, color=red, label=\""
        << analysis::kind_name(finding->kind) << "\"];\n";
  }
  out << "}\n";
  return out.str();
}

}  // namespace rift
