// Planner v2: lowers a stub list into plan::Tree (see plan.h for the shape, plan_facts.h for
// what a predicate lets the tree dispatch on, docs/planner.md for why the result is exact).
//
// Each stub is filed in exactly one leaf, under keys chosen from its dispatch facts:
//   space   the stub's own (docs/spaces.md), else the global scope;
//   method  the first method fact;
//   path    the first exact-path fact, else the longest prefix fact (an exact path wins);
//   value   the first query / header / body-field value fact, routed inside the path's cell
//           (when at least two stubs of the cell share that index; otherwise its rest leaf).
// Every fact is a necessary condition, so filing can only skip a stub for requests it could never
// match. A predicate is dropped from the stub's checks only when it is decidable and every fact
// it gave is one the stub was filed under; everything else stays a residual, in stub order.
#include <algorithm>
#include <optional>

#include "compiler/ascii.h"
#include "compiler/plan.h"
#include "compiler/plan_facts.h"

namespace rift::plan {
namespace {

Tree::StubKeys choose_keys(const std::vector<Facts>& facts) {
  Tree::StubKeys keys;
  for (const Facts& fact : facts) {
    if (fact.method && !keys.method) keys.method = fact.method;
    if (fact.path && !keys.path) keys.path = fact.path;
    if (fact.prefix && (!keys.prefix || fact.prefix->size() > keys.prefix->size())) {
      keys.prefix = fact.prefix;
    }
    if (fact.substring && (!keys.substring || fact.substring->size() > keys.substring->size())) {
      keys.substring = fact.substring;
    }
    if (fact.value && !keys.value) keys.value = fact.value;
  }
  if (keys.path) keys.prefix.reset();
  if (keys.path || keys.prefix) keys.substring.reset();
  return keys;
}

// Filing under an exact path or a prefix that starts with `prefix` already demands `prefix`.
bool implies_prefix(const Tree::StubKeys& keys, const std::string& prefix) {
  return (keys.path && keys.path->starts_with(prefix)) ||
         (keys.prefix && keys.prefix->starts_with(prefix));
}

// The predicate at `index` holds exactly when the request has the keys the stub is filed under.
bool decided(const std::vector<Facts>& facts, size_t index, const Tree::StubKeys& keys) {
  for (const Facts& fact : facts) {
    if (fact.predicate != index) continue;
    return fact.decidable && (!fact.method || fact.method == keys.method) &&
           (!fact.path || fact.path == keys.path) &&
           (!fact.prefix || implies_prefix(keys, *fact.prefix));
  }
  return false;
}

Cell& cell_for(Tree& tree, const Tree::StubKeys& keys) {
  Scope& scope = keys.space ? tree.by_space[*keys.space] : tree;
  MethodNode& node = keys.method ? scope.by_method[*keys.method] : scope.any_method;
  if (keys.path) return node.by_path[*keys.path];
  if (keys.prefix) return node.by_prefix[*keys.prefix];
  if (keys.substring) {
    SubstringIndex& index = node.by_substring;
    auto [found, added] =
        index.ids.emplace(*keys.substring, static_cast<int32_t>(index.literals.size()));
    if (added) {
      index.literals.push_back(*keys.substring);
      index.cells.emplace_back();
    }
    return index.cells[static_cast<size_t>(found->second)];
  }
  return node.any_path;
}

void file(Cell& cell, const std::optional<Tree::StubKeys::Value>& value, Candidate candidate) {
  if (!value) {
    cell.rest.candidates.push_back(std::move(candidate));
    return;
  }
  auto index = std::find_if(cell.indexes.begin(), cell.indexes.end(), [&](const ValueIndex& i) {
    return i.field == value->field && i.key == value->key;
  });
  if (index == cell.indexes.end()) {
    index = cell.indexes.emplace(cell.indexes.end());
    index->field = value->field;
    index->key = value->key;
  }
  index->first_stub = std::min(index->first_stub, candidate.stub_index);
  index->by_value[value->value].candidates.push_back(std::move(candidate));
}

// A value index costs each request that reaches it a lookup of its values (for a body field, a
// selection); routing a single stub through one saves nothing over checking that stub. Such
// stubs go back to the cell's rest leaf, which is always offered: filing is only ever necessary.
constexpr size_t kMinIndexedStubs = 2;

void demote_small_indexes(Cell& cell, std::vector<Tree::StubKeys>& keys) {
  bool demoted = false;
  std::erase_if(cell.indexes, [&](ValueIndex& index) {
    size_t stubs = 0;
    for (const auto& [value, leaf] : index.by_value) stubs += leaf.candidates.size();
    if (stubs >= kMinIndexedStubs) return false;
    for (auto& [value, leaf] : index.by_value) {
      for (auto& candidate : leaf.candidates) {
        keys[static_cast<size_t>(candidate.stub_index)].value.reset();
        cell.rest.candidates.push_back(std::move(candidate));
      }
    }
    demoted = true;
    return true;
  });
  if (!demoted) return;
  std::sort(cell.rest.candidates.begin(), cell.rest.candidates.end(),
            [](const Candidate& a, const Candidate& b) { return a.stub_index < b.stub_index; });
}

void index_prefix_lengths(MethodNode& node) {
  node.prefix_lengths.clear();
  for (const auto& [prefix, cell] : node.by_prefix) node.prefix_lengths.push_back(prefix.size());
  std::sort(node.prefix_lengths.begin(), node.prefix_lengths.end());
  node.prefix_lengths.erase(std::unique(node.prefix_lengths.begin(), node.prefix_lengths.end()),
                            node.prefix_lengths.end());
}

void finish_node(MethodNode& node, std::vector<Tree::StubKeys>& keys) {
  for (auto& [path, cell] : node.by_path) demote_small_indexes(cell, keys);
  for (auto& [prefix, cell] : node.by_prefix) demote_small_indexes(cell, keys);
  for (auto& cell : node.by_substring.cells) demote_small_indexes(cell, keys);
  demote_small_indexes(node.any_path, keys);
  index_prefix_lengths(node);
  node.by_substring.automaton = LiteralAutomaton(node.by_substring.literals);
}

}  // namespace

const char* field_name(Field field) {
  switch (field) {
    case Field::kQuery:
      return "query";
    case Field::kHeader:
      return "headers";
    case Field::kBodySelector:
      return "body";
    case Field::kScenario:
      return "scenario";
  }
  return "?";
}

size_t FoldedHash::operator()(std::string_view text) const {
  // FNV-1a over the folded bytes: cheap, and paths are short.
  uint64_t hash = 1469598103934665603ull;
  for (char c : text) {
    hash ^= static_cast<unsigned char>(ascii::lower(c));
    hash *= 1099511628211ull;
  }
  return static_cast<size_t>(hash);
}

bool FoldedEqual::operator()(std::string_view a, std::string_view b) const {
  return ascii::iequals(a, b);
}

std::variant<std::shared_ptr<const Tree>, MbError> build(const std::vector<ir::Stub>& stubs,
                                                         Protocol protocol) {
  auto tree = std::make_shared<Tree>();
  tree->stub_count = stubs.size();
  tree->stub_keys.resize(stubs.size());

  for (size_t index = 0; index < stubs.size(); ++index) {
    const std::vector<ir::Predicate>& predicates = stubs[index].predicates;
    const std::vector<Facts> facts = stub_facts(predicates, protocol);
    Tree::StubKeys& keys = tree->stub_keys[index];
    keys = choose_keys(facts);
    keys.space = stubs[index].space;

    Candidate candidate;
    candidate.stub_index = static_cast<int>(index);
    for (size_t p = 0; p < predicates.size(); ++p) {
      if (decided(facts, p, keys)) continue;
      auto prepared = PreparedPredicate::prepare(predicates[p]);
      if (auto* error = std::get_if<MbError>(&prepared)) return *error;
      candidate.residual.push_back(static_cast<int>(tree->predicates.size()));
      tree->predicates.push_back(std::move(std::get<PreparedPredicate>(prepared)));
    }
    file(cell_for(*tree, keys), keys.value, std::move(candidate));
  }

  auto finish_scope = [&](Scope& scope) {
    for (auto& [method, node] : scope.by_method) finish_node(node, tree->stub_keys);
    finish_node(scope.any_method, tree->stub_keys);
  };
  finish_scope(*tree);
  for (auto& [space, scope] : tree->by_space) finish_scope(scope);
  return std::shared_ptr<const Tree>(std::move(tree));
}

}  // namespace rift::plan
