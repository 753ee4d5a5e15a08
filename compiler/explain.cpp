// explain(): replays the interpreter's walk over plan::Tree, recording each step, then on a miss
// judges every stub clause by clause to find the closest ones (see explain.h for the report).
#include "compiler/explain.h"

#include <algorithm>
#include <array>
#include <limits>
#include <numeric>

#include "compiler/ascii.h"
#include "compiler/explain_clauses.h"
#include "compiler/predicate_json.h"

namespace rift {
namespace {

struct ReachedLeaf {
  const plan::Leaf* leaf = nullptr;
  std::string label;  // "GET /users", "GET *", "* /users", "* *"
};

const plan::Leaf* find_leaf(const plan::MethodNode& node, std::string_view path) {
  auto it = node.by_path.find(path);
  return it == node.by_path.end() ? nullptr : &it->second;
}

// One "path" step for a method node, and the two leaves it offers.
ir::Json visit_method_node(const plan::MethodNode& node, const std::string& method,
                           const std::string& path, ReachedLeaf& exact, ReachedLeaf& any) {
  exact.leaf = find_leaf(node, path);
  exact.label = method + " " + path;
  any.leaf = &node.any_path;
  any.label = method + " *";
  ir::Json step = ir::Json::object();
  step["step"] = "path";
  step["method"] = method;
  step["value"] = path;
  step["result"] = exact.leaf != nullptr ? "hit" : "fallback";
  step["candidates"] = exact.leaf != nullptr ? exact.leaf->candidates.size() : 0;
  step["anyPathCandidates"] = node.any_path.candidates.size();
  return step;
}

// Position of a residual predicate in its stub's own list (the planner keeps the originals).
int predicate_index(const ir::Stub& stub, const ir::Predicate& predicate) {
  for (size_t i = 0; i < stub.predicates.size(); ++i) {
    if (stub.predicates[i] == predicate) return static_cast<int>(i);
  }
  return -1;
}

// Would the tree's dispatch offer stub `index` to this request at all?
bool offered(const plan::Tree& tree, size_t index, const Request& request) {
  if (index >= tree.stub_keys.size()) return false;
  const auto& keys = tree.stub_keys[index];
  return (!keys.method || ascii::iequals(*keys.method, request.method)) &&
         (!keys.path || ascii::iequals(*keys.path, request.path));
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

  // The interpreter's walk (compiler/interpreter.cpp), step by step.
  int walk() {
    std::array<ReachedLeaf, 4> leaves{};
    ir::Json method_step = ir::Json::object();
    method_step["step"] = "method";
    method_step["value"] = request_.method;
    auto method = tree_.by_method.find(std::string_view(request_.method));
    // "fallback": no stub is dispatched on this method; only any-method stubs remain.
    method_step["result"] = method != tree_.by_method.end() ? "hit" : "fallback";
    path_.push_back(std::move(method_step));
    if (method != tree_.by_method.end()) {
      path_.push_back(
          visit_method_node(method->second, method->first, request_.path, leaves[0], leaves[1]));
    }
    path_.push_back(visit_method_node(tree_.any_method, "*", request_.path, leaves[2], leaves[3]));

    std::array<size_t, 4> next{};
    for (;;) {
      int best_list = -1;
      int best_stub = std::numeric_limits<int>::max();
      for (int list = 0; list < 4; ++list) {
        const plan::Leaf* leaf = leaves[list].leaf;
        if (leaf == nullptr || next[list] >= leaf->candidates.size()) continue;
        const int stub = leaf->candidates[next[list]].stub_index;
        if (stub < best_stub) {
          best_stub = stub;
          best_list = list;
        }
      }
      if (best_list < 0) return -1;
      const plan::Candidate& candidate = leaves[best_list].leaf->candidates[next[best_list]++];
      ++visited_;
      ir::Json step = ir::Json::object();
      step["step"] = "candidate";
      step["stub"] = candidate.stub_index;
      step["leaf"] = leaves[best_list].label;
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

  // Every stub, ranked by clauses passed before the first failure (ties: lower index first).
  ir::Json near_misses(size_t limit) {
    std::vector<size_t> failing;
    for (size_t i = 0; i < stubs_.size(); ++i) {
      if (verdict(i).failed_clause) failing.push_back(i);
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
      entry["candidate"] = offered(tree_, index, request_);
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
