// plan::Tree to JSON, text and Graphviz. The three renderers share one sorted walk of the tree.
#include "compiler/plan_render.h"

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>

#include "compiler/predicate_json.h"

namespace rift {
namespace {

struct LeafView {
  std::optional<std::string> path;  // unset: any path
  const plan::Leaf* leaf = nullptr;
};
struct MethodView {
  std::optional<std::string> method;  // unset: any method
  std::vector<LeafView> leaves;       // sorted paths, then the any-path leaf
};

MethodView view_of(std::optional<std::string> method, const plan::MethodNode& node) {
  MethodView view{std::move(method), {}};
  std::vector<std::string> paths;
  for (const auto& [path, leaf] : node.by_path) {
    if (!leaf.candidates.empty()) paths.push_back(path);
  }
  std::sort(paths.begin(), paths.end());
  for (const auto& path : paths) view.leaves.push_back({path, &node.by_path.find(path)->second});
  if (!node.any_path.candidates.empty()) view.leaves.push_back({std::nullopt, &node.any_path});
  return view;
}

// Methods in sorted order, then the any-method node; nodes without candidates are left out.
std::vector<MethodView> sorted_view(const plan::Tree& tree) {
  std::vector<std::string> methods;
  for (const auto& [method, node] : tree.by_method) methods.push_back(method);
  std::sort(methods.begin(), methods.end());
  std::vector<MethodView> out;
  for (const auto& method : methods) {
    MethodView view = view_of(method, tree.by_method.find(method)->second);
    if (!view.leaves.empty()) out.push_back(std::move(view));
  }
  MethodView any = view_of(std::nullopt, tree.any_method);
  if (!any.leaves.empty()) out.push_back(std::move(any));
  return out;
}

size_t leaf_size(const plan::FoldedMap& map, const std::string& path) {
  auto it = map.find(path);
  return it == map.end() ? 0 : it->second.candidates.size();
}

ir::Json residual_json(const plan::Tree& tree, const plan::Candidate& candidate) {
  ir::Json out = ir::Json::array();
  for (int index : candidate.residual) {
    out.push_back(predicate_to_json(tree.predicates[static_cast<size_t>(index)].source()));
  }
  return out;
}

ir::Json leaf_json(const plan::Tree& tree, const plan::Leaf& leaf) {
  ir::Json candidates = ir::Json::array();
  for (const auto& candidate : leaf.candidates) {
    ir::Json entry = ir::Json::object();
    entry["stub"] = candidate.stub_index;
    entry["residual"] = residual_json(tree, candidate);
    candidates.push_back(std::move(entry));
  }
  ir::Json out = ir::Json::object();
  out["size"] = leaf.candidates.size();
  out["candidates"] = std::move(candidates);
  return out;
}

std::string method_label(const MethodView& view) {
  return view.method ? *view.method : "(any method)";
}
std::string path_label(const LeafView& view) {
  return view.path ? *view.path : "(any path)";
}

std::string summary(const plan::Tree& tree, size_t stubs) {
  const CandidateStats stats = candidate_stats(tree);
  std::ostringstream out;
  out << stubs << (stubs == 1 ? " stub" : " stubs") << " in " << stats.leaves
      << (stats.leaves == 1 ? " leaf" : " leaves") << "; largest leaf " << stats.max_leaf
      << "; a request visits at most " << stats.worst_case
      << (stats.worst_case == 1 ? " candidate" : " candidates");
  return out.str();
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
  const plan::MethodNode& any = tree.any_method;
  auto count = [&](const plan::Leaf& leaf) {
    if (leaf.candidates.empty()) return;
    ++stats.leaves;
    stats.max_leaf = std::max(stats.max_leaf, leaf.candidates.size());
  };
  for (const auto& [method, node] : tree.by_method) {
    for (const auto& [path, leaf] : node.by_path) count(leaf);
    count(node.any_path);
  }
  for (const auto& [path, leaf] : any.by_path) count(leaf);
  count(any.any_path);

  // A request reaches (method, path), (method, *), (*, path) and (*, *). Try every method the
  // tree knows plus an unknown one, against every path either node knows plus an unknown one.
  const size_t any_any = any.any_path.candidates.size();
  size_t best = any_any;
  for (const auto& [path, leaf] : any.by_path) {
    best = std::max(best, any_any + leaf.candidates.size());
  }
  for (const auto& [method, node] : tree.by_method) {
    const size_t base = any_any + node.any_path.candidates.size();
    best = std::max(best, base);
    for (const auto& [path, leaf] : node.by_path) {
      best = std::max(best, base + leaf.candidates.size() + leaf_size(any.by_path, path));
    }
    for (const auto& [path, leaf] : any.by_path) {
      best = std::max(best, base + leaf.candidates.size() + leaf_size(node.by_path, path));
    }
  }
  stats.worst_case = best;
  return stats;
}

ir::Json plan_to_json(const plan::Tree& tree, const std::vector<ir::Stub>& stubs,
                      const std::vector<analysis::Finding>& findings) {
  ir::Json methods = ir::Json::object();
  ir::Json any_method = ir::Json::object();
  for (const MethodView& method : sorted_view(tree)) {
    ir::Json node = ir::Json::object();
    ir::Json paths = ir::Json::object();
    for (const LeafView& leaf : method.leaves) {
      if (leaf.path) paths[*leaf.path] = leaf_json(tree, *leaf.leaf);
    }
    node["paths"] = std::move(paths);
    const LeafView& last = method.leaves.back();
    if (!last.path) node["anyPath"] = leaf_json(tree, *last.leaf);
    if (method.method) {
      methods[*method.method] = std::move(node);
    } else {
      any_method = std::move(node);
    }
  }
  ir::Json tree_json = ir::Json::object();
  tree_json["methods"] = std::move(methods);
  tree_json["anyMethod"] = std::move(any_method);

  const CandidateStats stats = candidate_stats(tree);
  ir::Json sets = ir::Json::object();
  sets["leaves"] = stats.leaves;
  sets["max"] = stats.max_leaf;
  sets["worstCase"] = stats.worst_case;

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
    for (const LeafView& leaf : method.leaves) {
      const size_t size = leaf.leaf->candidates.size();
      out << "  " << path_label(leaf) << "  (" << size << (size == 1 ? " candidate" : " candidates")
          << ")\n";
      for (const auto& candidate : leaf.leaf->candidates) {
        out << "    stub " << candidate.stub_index;
        if (candidate.residual.empty()) {
          out << "  no residual checks";
        } else {
          out << "  if " << residual_json(tree, candidate).dump();
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
  int leaf_id = 0;
  for (const MethodView& method : sorted_view(tree)) {
    const std::string m = "m" + std::to_string(method_id++);
    out << "  " << m << " [label=\"" << dot_escape(method_label(method)) << "\"];\n"
        << "  request -> " << m << ";\n";
    for (const LeafView& leaf : method.leaves) {
      const std::string l = "l" + std::to_string(leaf_id++);
      const size_t size = leaf.leaf->candidates.size();
      out << "  " << l << " [label=\""
          << dot_escape(path_label(leaf) + "\n" + std::to_string(size) +
                        (size == 1 ? " candidate" : " candidates"))
          << "\"];\n"
          << "  " << m << " -> " << l << ";\n";
      for (const auto& candidate : leaf.leaf->candidates) {
        const std::string s = "s" + std::to_string(candidate.stub_index);
        std::string label = "stub " + std::to_string(candidate.stub_index);
        if (!candidate.residual.empty()) {
          label += "\n+" + std::to_string(candidate.residual.size()) + " residual";
        }
        out << "  " << s << " [label=\"" << dot_escape(label) << "\"";
        if (by_stub.count(candidate.stub_index) != 0)
          out << ", style=filled, fillcolor=\"#f4cccc\"";
        out << "];\n"
            << "  " << l << " -> " << s << ";\n";
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
