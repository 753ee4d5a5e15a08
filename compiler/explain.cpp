// explain(): replays the interpreter's walk over plan::Tree, recording each step, then on a miss
// judges every stub clause by clause to find the closest ones (see explain.h for the report).
#include "compiler/explain.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include "compiler/ascii.h"
#include "compiler/explain_clauses.h"
#include "compiler/plan_walk.h"
#include "compiler/predicate_json.h"
#include "compiler/spaces.h"

namespace rift {
namespace {

struct ReachedLeaf {
  const plan::Leaf* leaf = nullptr;
  std::string label;  // the cell: "GET /users", "GET /users/*" (a prefix), "GET *", "* /users" ...
};

std::string cell_label(const std::string& method, plan::CellKind kind, std::string_view key) {
  switch (kind) {
    case plan::CellKind::kExact:
      return method + " " + std::string(key);
    case plan::CellKind::kPrefix:
      return method + " " + std::string(key) + "*";
    case plan::CellKind::kSubstring:
      return method + " *" + std::string(key) + "*";
    case plan::CellKind::kAny:
      break;
  }
  return method + " *";
}

// Position of a residual predicate in its stub's own list (the planner keeps the originals).
int predicate_index(const ir::Stub& stub, const ir::Predicate& predicate) {
  for (size_t i = 0; i < stub.predicates.size(); ++i) {
    if (stub.predicates[i] == predicate) return static_cast<int>(i);
  }
  return -1;
}

// Would the tree's dispatch offer stub `index` to this request at all?
bool offered(const plan::Tree& tree, size_t index, RequestContext& context) {
  if (index >= tree.stub_keys.size()) return false;
  const auto& keys = tree.stub_keys[index];
  if (keys.space && *keys.space != context.request().flow_id) return false;
  std::string method_scratch;
  std::string path_scratch;
  const std::string_view method = plan::lookup_text(context.request().method, method_scratch);
  const std::string_view path = plan::lookup_text(context.request().path, path_scratch);
  if (keys.method && !ascii::iequals(*keys.method, method)) return false;
  if (keys.path && !ascii::iequals(*keys.path, path)) return false;
  if (keys.prefix && !(path.size() >= keys.prefix->size() &&
                       ascii::iequals(*keys.prefix, path.substr(0, keys.prefix->size())))) {
    return false;
  }
  if (keys.substring && ascii::lower(path).find(*keys.substring) == std::string::npos) {
    return false;
  }
  if (!keys.value) return true;
  const auto& values = plan::request_values(context, keys.value->field, keys.value->key);
  return std::any_of(values.begin(), values.end(), [&](const std::string& value) {
    return ascii::iequals(value, keys.value->value);
  });
}

ir::Json request_view(RequestContext& context) {
  ir::Json out = ir::Json::object();
  for (const char* key : {"method", "path", "query", "headers", "body", "form"}) {
    auto it = context.json().find(key);
    if (it != context.json().end()) out[key] = *it;
  }
  return out;
}

class Explainer {
 public:
  Explainer(const plan::Tree& tree, const std::vector<ir::Stub>& stubs, const Request& request)
      : tree_(tree), stubs_(stubs), request_(request), context_(request) {
    verdicts_.resize(stubs.size());
  }

  ir::Json run(const ExplainOptions& options) {
    context_.set_scenario_states(options.scenarios);
    report_["request"] = request_view(context_);
    report_["matched"] = nullptr;
    const int matched = walk();
    if (matched >= 0) report_["matched"] = matched;
    report_["path"] = std::move(path_);
    report_["candidatesVisited"] = visited_;
    report_["nearMisses"] = matched >= 0 ? ir::Json::array() : near_misses(options.near_misses);
    if (error_) report_["error"] = std::move(*error_);
    return std::move(report_);
  }

 private:
  const explaining::Verdict& verdict(size_t index) {
    if (!verdicts_[index]) verdicts_[index] = explaining::judge_stub(stubs_[index], context_);
    return *verdicts_[index];
  }

  // The leaves one method node offers this request, with a "path" step for the node and a
  // "value" step for every value index of a reached cell (looked up eagerly, unlike the
  // interpreter, which changes nothing but the cost).
  void visit_node(const plan::MethodNode& node, const std::string& method, std::string_view path) {
    ir::Json step = ir::Json::object();
    step["step"] = "path";
    step["method"] = method;
    step["value"] = request_.path;
    step["result"] = "fallback";
    step["candidates"] = 0;
    ir::Json prefixes = ir::Json::array();
    ir::Json substrings = ir::Json::array();
    size_t any_path = 0;
    ir::Json value_steps = ir::Json::array();
    plan::for_each_cell(
        node, path, [&](const plan::Cell& cell, plan::CellKind kind, std::string_view key) {
          const std::string label = cell_label(method, kind, key);
          size_t reached = offer(cell.rest, label);
          for (const plan::ValueIndex& index : cell.indexes) {
            const auto& values = plan::request_values(context_, index.field, index.key);
            size_t found = 0;
            for (const std::string& value : values) {
              auto leaf = index.by_value.find(value);
              if (leaf != index.by_value.end()) found += offer(leaf->second, label);
            }
            ir::Json value_step = ir::Json::object();
            value_step["step"] = "value";
            value_step["cell"] = label;
            value_step["field"] = plan::field_name(index.field);
            value_step["key"] = index.key;
            value_step["values"] = values;
            value_step["candidates"] = found;
            value_steps.push_back(std::move(value_step));
            reached += found;
          }
          if (kind == plan::CellKind::kExact) {
            step["result"] = "hit";
            step["candidates"] = reached;
          } else if (kind == plan::CellKind::kPrefix) {
            prefixes.push_back(ir::Json{{"prefix", std::string(key)}, {"candidates", reached}});
          } else if (kind == plan::CellKind::kSubstring) {
            substrings.push_back(
                ir::Json{{"substring", std::string(key)}, {"candidates", reached}});
          } else {
            any_path = reached;
          }
        });
    if (!prefixes.empty()) step["prefixes"] = std::move(prefixes);
    if (!substrings.empty()) step["substrings"] = std::move(substrings);
    step["anyPathCandidates"] = any_path;
    path_.push_back(std::move(step));
    for (auto& value_step : value_steps) path_.push_back(std::move(value_step));
  }

  // A "method" step for the scope, then its nodes the request reaches. Labels name the space.
  void visit_scope(const plan::Scope& scope, const std::string* space, std::string_view method,
                   std::string_view path) {
    const std::string in = space ? "space " + *space + ": " : "";
    ir::Json method_step = ir::Json::object();
    method_step["step"] = "method";
    if (space) method_step["space"] = *space;
    method_step["value"] = request_.method;
    auto node = scope.by_method.find(method);
    // "fallback": no stub is dispatched on this method; only any-method stubs remain.
    method_step["result"] = node != scope.by_method.end() ? "hit" : "fallback";
    path_.push_back(std::move(method_step));
    if (node != scope.by_method.end()) visit_node(node->second, in + node->first, path);
    visit_node(scope.any_method, in + "*", path);
  }

  size_t offer(const plan::Leaf& leaf, const std::string& label) {
    if (!leaf.candidates.empty()) leaves_.push_back(ReachedLeaf{&leaf, label});
    return leaf.candidates.size();
  }

  // The interpreter's walk (compiler/interpreter.cpp), step by step.
  int walk() {
    std::string method_scratch;
    std::string path_scratch;
    const std::string_view method = plan::lookup_text(request_.method, method_scratch);
    const std::string_view path = plan::lookup_text(request_.path, path_scratch);
    if (!tree_.by_space.empty()) {
      // "fallback": no stub lives in the request's space; only global stubs remain.
      ir::Json space_step = ir::Json::object();
      space_step["step"] = "space";
      space_step["value"] = request_.flow_id;
      space_step["result"] = tree_.by_space.contains(request_.flow_id) ? "hit" : "fallback";
      path_.push_back(std::move(space_step));
    }
    plan::for_each_scope(tree_, request_.flow_id,
                         [&](const plan::Scope& scope, const std::string* space) {
                           visit_scope(scope, space, method, path);
                         });

    // Merge by stub index; no stub is in two leaves.
    std::vector<size_t> next(leaves_.size(), 0);
    for (;;) {
      size_t best = leaves_.size();
      int best_stub = std::numeric_limits<int>::max();
      for (size_t list = 0; list < leaves_.size(); ++list) {
        const auto& candidates = leaves_[list].leaf->candidates;
        if (next[list] < candidates.size() && candidates[next[list]].stub_index < best_stub) {
          best_stub = candidates[next[list]].stub_index;
          best = list;
        }
      }
      if (best == leaves_.size()) return -1;
      const plan::Candidate& candidate = leaves_[best].leaf->candidates[next[best]++];
      ++visited_;
      ir::Json step = ir::Json::object();
      step["step"] = "candidate";
      step["stub"] = candidate.stub_index;
      step["leaf"] = leaves_[best].label;
      const bool matched = check_candidate(candidate, step);
      const bool stop = matched || step["result"] == "error";
      path_.push_back(std::move(step));
      if (matched) return candidate.stub_index;
      if (stop) return -1;
    }
  }

  // Runs the candidate's residual predicates as the interpreter does, recording the verdict.
  bool check_candidate(const plan::Candidate& candidate, ir::Json& step) {
    for (int residual : candidate.residual) {
      const PreparedPredicate& predicate = tree_.predicates[residual];
      bool holds = false;
      try {
        holds = predicate.evaluate(context_);
      } catch (const EvalError& error) {
        step["result"] = "error";
        step["index"] = index_of(candidate, predicate);
        step["error"] = error.error().to_json();
        error_ = error.error().to_json();
        return false;
      }
      if (holds) continue;
      step["result"] = "failed";
      step["index"] = index_of(candidate, predicate);
      const size_t stub = static_cast<size_t>(candidate.stub_index);
      if (stub < stubs_.size()) {
        const auto& failed = verdict(stub).failed_clause;
        if (failed && failed->contains("reason")) step["reason"] = (*failed)["reason"];
      }
      return false;
    }
    step["result"] = "matched";
    return true;
  }

  int index_of(const plan::Candidate& candidate, const PreparedPredicate& predicate) const {
    const size_t stub = static_cast<size_t>(candidate.stub_index);
    return stub < stubs_.size() ? predicate_index(stubs_[stub], predicate.source()) : -1;
  }

  // Every stub the request can see (another space's are not its business), ranked by clauses
  // passed before the first failure (ties: lower index first).
  ir::Json near_misses(size_t limit) {
    std::vector<size_t> failing;
    for (size_t i = 0; i < stubs_.size(); ++i) {
      if (visible_to(stubs_[i], request_) && verdict(i).failed_clause) failing.push_back(i);
    }
    std::stable_sort(failing.begin(), failing.end(), [&](size_t a, size_t b) {
      return verdicts_[a]->passed_clauses > verdicts_[b]->passed_clauses;
    });
    ir::Json out = ir::Json::array();
    for (size_t i = 0; i < failing.size() && i < limit; ++i) {
      const size_t index = failing[i];
      ir::Json entry = ir::Json::object();
      entry["stub"] = index;
      entry["passedClauses"] = verdicts_[index]->passed_clauses;
      entry["candidate"] = offered(tree_, index, context_);
      entry["failedClause"] = *verdicts_[index]->failed_clause;
      out.push_back(std::move(entry));
    }
    return out;
  }

  const plan::Tree& tree_;
  const std::vector<ir::Stub>& stubs_;
  const Request& request_;
  RequestContext context_;
  std::vector<std::optional<explaining::Verdict>> verdicts_;
  std::vector<ReachedLeaf> leaves_;
  ir::Json report_ = ir::Json::object();
  ir::Json path_ = ir::Json::array();
  size_t visited_ = 0;
  std::optional<ir::Json> error_;
};

}  // namespace

ir::Json explain(const plan::Tree& tree, const std::vector<ir::Stub>& stubs,
                 const Request& request) {
  return explain(tree, stubs, request, ExplainOptions{});
}

ir::Json explain(const plan::Tree& tree, const std::vector<ir::Stub>& stubs, const Request& request,
                 const ExplainOptions& options) {
  Explainer explainer(tree, stubs, request);
  return explainer.run(options);
}

}  // namespace rift
