// Planner v1: lowers a stub list into plan::Tree (see plan.h for the shape).
//
// Dispatch only ever uses a *necessary* condition of a stub, so it can never change which stub
// wins: a stub is filed under a method/path key only when one of its predicates is a plain
// `equals` that demands exactly that method/path. Such a predicate is dropped from the residual
// checks only when the dispatch decides it completely (it names nothing but method and path);
// otherwise it stays and is re-checked at the leaf.
#include <algorithm>
#include <optional>

#include "compiler/ascii.h"
#include "compiler/plan.h"

namespace rift::plan {
namespace {

using ascii::lower;
using ascii::upper;

// What one predicate tells the dispatcher.
struct DispatchFacts {
  std::optional<std::string> method;  // upper-cased
  std::optional<std::string> path;    // case-folded
  bool fully_decided = false;         // nothing else in the predicate
};

// Mountebank's `equals` folds keys and values when caseSensitive is false, so {"PATH": "/X"}
// demands the request path equal "/x" ignoring case. With caseSensitive, except, or a selector,
// the comparison is something else, and we leave the predicate alone.
bool is_ascii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return (c & 0x80) == 0; });
}

DispatchFacts dispatch_facts(const ir::Predicate& predicate) {
  DispatchFacts facts;
  if (predicate.op != ir::Op::kEquals || predicate.case_sensitive || !predicate.except.empty() ||
      predicate.jsonpath || predicate.xpath || !predicate.fields.is_object()) {
    return facts;
  }
  size_t method_keys = 0;
  size_t path_keys = 0;
  for (const auto& [key, value] : predicate.fields.items()) {
    const std::string name = lower(key);
    method_keys += name == "method";
    path_keys += name == "path";
    // Only ASCII values: the evaluator folds with JavaScript's Unicode rules, the dispatch
    // hash with ASCII ones, and real request lines are ASCII anyway.
    if (!value.is_string() || !is_ascii(value.get_ref<const std::string&>())) continue;
    const auto& text = value.get_ref<const std::string&>();
    if (name == "method") facts.method = upper(text);
    if (name == "path") facts.path = lower(text);
  }
  // {"method": "GET", "METHOD": "POST"} folds to one key, and JavaScript keeps the last value:
  // rather than reproduce that here, such a predicate is left to the evaluator.
  if (method_keys > 1 || path_keys > 1) return DispatchFacts{};
  const size_t decided = (facts.method ? 1 : 0) + (facts.path ? 1 : 0);
  facts.fully_decided = decided > 0 && decided == predicate.fields.size();
  return facts;
}

// A predicate that can fail with an error at request time (an xpath selector with an unbound
// prefix, an injection). Mountebank evaluates a stub's predicates in order, so once such a
// predicate precedes a dispatch fact, skipping the stub on that fact would turn a 500 into a
// quiet no-match.
bool can_throw(const ir::Predicate& predicate) {
  if (predicate.xpath || predicate.op == ir::Op::kInject) return true;
  return std::any_of(predicate.children.begin(), predicate.children.end(), can_throw);
}

}  // namespace

size_t FoldedHash::operator()(std::string_view text) const {
  // FNV-1a over the folded bytes: cheap, and paths are short.
  uint64_t hash = 1469598103934665603ull;
  for (char c : text) {
    hash ^= static_cast<unsigned char>(lower(c));
    hash *= 1099511628211ull;
  }
  return static_cast<size_t>(hash);
}

bool FoldedEqual::operator()(std::string_view a, std::string_view b) const {
  return ascii::iequals(a, b);
}

std::variant<std::shared_ptr<const Tree>, MbError> build(const std::vector<ir::Stub>& stubs) {
  auto tree = std::make_shared<Tree>();
  tree->stub_count = stubs.size();
  tree->stub_keys.resize(stubs.size());

  for (size_t index = 0; index < stubs.size(); ++index) {
    Candidate candidate;
    candidate.stub_index = static_cast<int>(index);
    Tree::StubKeys& keys = tree->stub_keys[index];

    bool may_have_thrown = false;
    for (const ir::Predicate& predicate : stubs[index].predicates) {
      const DispatchFacts facts = may_have_thrown ? DispatchFacts{} : dispatch_facts(predicate);
      may_have_thrown = may_have_thrown || can_throw(predicate);
      bool used = false;
      if (facts.method && !keys.method) {
        keys.method = facts.method;
        used = true;
      }
      if (facts.path && !keys.path) {
        keys.path = facts.path;
        used = true;
      }
      // A predicate whose keys were already taken by an earlier one is still a real check.
      const bool decided = used && facts.fully_decided &&
                           (!facts.method || keys.method == facts.method) &&
                           (!facts.path || keys.path == facts.path);
      if (decided) continue;

      auto prepared = PreparedPredicate::prepare(predicate);
      if (auto* error = std::get_if<MbError>(&prepared)) return *error;
      candidate.residual.push_back(static_cast<int>(tree->predicates.size()));
      tree->predicates.push_back(std::move(std::get<PreparedPredicate>(prepared)));
    }

    MethodNode& node = keys.method ? tree->by_method[*keys.method] : tree->any_method;
    Leaf& leaf = keys.path ? node.by_path[*keys.path] : node.any_path;
    leaf.candidates.push_back(std::move(candidate));
  }
  return std::shared_ptr<const Tree>(std::move(tree));
}

}  // namespace rift::plan
