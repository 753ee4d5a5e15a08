// plan::Tree — the decision tree for one imposter's stub list (planner v2).
//
// Mountebank tries stubs in order and the first whose predicates all hold wins. The tree keeps
// that order while dispatching: every stub is filed in exactly one leaf, under keys that are
// *necessary* conditions of its predicates (a method, an exact path, a path prefix, one exact
// query/header/body-field value). A request gathers the few leaves its own keys reach, merges
// their candidates by stub index, and runs each candidate's residual predicates in that order,
// so the first candidate that passes is the stub Mountebank would pick, and the work done does
// not grow with the number of stubs that cannot match.
//
//   Tree ── global Scope, and a Scope per space (exact flow id; docs/spaces.md)
//   Scope ── method (exact, or any) ── MethodNode
//   MethodNode ── exact path ──┐
//              ── path prefix ─┼── Cell ── rest leaf
//              ── any path ────┘        └─ ValueIndex (field, key) ── exact value ── leaf
//
// Keys are stored ASCII case-folded: a folded comparison is necessary for both Mountebank's
// folded and its case-sensitive comparisons, so one table serves both and the predicate that
// asked for case sensitivity simply stays a residual check.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "compiler/errors.h"
#include "compiler/ir.h"
#include "compiler/literal_automaton.h"
#include "compiler/predicate_eval.h"
#include "compiler/request.h"

namespace rift::plan {

struct Candidate {
  int stub_index = -1;
  // Indexes into Tree::predicates of the checks still to run, in the stub's own order.
  std::vector<int> residual;
};

struct Leaf {
  std::vector<Candidate> candidates;  // ascending stub_index
};

// Hashes and compares ASCII case-insensitively, so a request's path is looked up without first
// building a lower-cased copy. Keys are stored case-folded. The hash is FNV-1a over the folded
// bytes; generated code reproduces it (codegen/), so it must not change without both.
struct FoldedHash {
  using is_transparent = void;
  size_t operator()(std::string_view text) const;
};
struct FoldedEqual {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const;
};
template <typename Value>
using FoldedMap = std::unordered_map<std::string, Value, FoldedHash, FoldedEqual>;

// A request field whose exact value routes stubs inside a cell.
enum class Field : uint8_t {
  kQuery,         // key: query parameter name
  kHeader,        // key: header name
  kBodySelector,  // key: a jsonpath selector applied to the JSON body
  kScenario,      // key: a scenario name; the value is the request's flow's state of it
};
const char* field_name(Field field);

struct ValueIndex {
  Field field = Field::kQuery;
  std::string key;           // folded name for query/header; the selector text for the body
  FoldedMap<Leaf> by_value;  // folded value -> stubs that demand it
  // The lowest stub index filed under any value: a matcher need not look the request's values
  // up before its merge has passed every lower stub.
  int first_stub = std::numeric_limits<int>::max();
};

// Everything filed under one (method, path-key) pair.
struct Cell {
  Leaf rest;                        // stubs this cell does not route further
  std::vector<ValueIndex> indexes;  // at most one per distinct (field, key)
};

// Stubs whose path patterns demand a literal somewhere in the path: `contains` or `endsWith`
// on the path, or a `matches` regex without a `^literal` head whose every match contains a
// literal (regex_literals.h). One Aho–Corasick scan of the path finds every literal it holds,
// so the candidate set of all such patterns costs one pass, however many there are.
struct SubstringIndex {
  std::vector<std::string> literals;             // folded, distinct; a literal's id is its position
  std::vector<Cell> cells;                       // cells[id]: the stubs filed under literals[id]
  std::unordered_map<std::string, int32_t> ids;  // literal -> id, for building
  LiteralAutomaton automaton;                    // over `literals`
};

struct MethodNode {
  FoldedMap<Cell> by_path;    // exact path, folded
  FoldedMap<Cell> by_prefix;  // path prefix, folded: every prefix of the request path is tried
  std::vector<size_t> prefix_lengths;  // ascending, distinct lengths of the by_prefix keys
  SubstringIndex by_substring;         // a literal anywhere in the path
  Cell any_path;
};

// The stubs one flow id sees beyond the global ones, or the global stubs themselves.
struct Scope {
  FoldedMap<MethodNode> by_method;  // key: upper-cased method
  MethodNode any_method;
};

// The global scope is the tree itself; a request also reaches the scope of its flow id, and
// the merge by stub index keeps global and space stubs in one first-match order.
struct Tree : Scope {
  std::unordered_map<std::string, Scope> by_space;  // exact flow id -> that space's stubs
  std::vector<PreparedPredicate> predicates;        // every residual predicate, owned here

  // For each stub: the keys it was filed under, for inspection, codegen and tests.
  struct StubKeys {
    std::optional<std::string> space;   // unset: global
    std::optional<std::string> method;  // unset: any method
    std::optional<std::string> path;    // exact path (folded)
    std::optional<std::string> prefix;  // path prefix (folded); never set together with path
    // A literal the path must contain (folded); only when neither path nor prefix is set.
    std::optional<std::string> substring;
    struct Value {
      Field field;
      std::string key;
      std::string value;  // folded
    };
    std::optional<Value> value;
  };
  std::vector<StubKeys> stub_keys;
  size_t stub_count = 0;
};

// Lowers a stub list into a tree. Fails with the first predicate that cannot be prepared.
// A tcp imposter's tree dispatches on `data` where an http one dispatches on the path: its
// requests carry their data in Request::path, so every tier's lookups stay the same.
std::variant<std::shared_ptr<const Tree>, MbError> build(const std::vector<ir::Stub>& stubs,
                                                         Protocol protocol = Protocol::kHttp);

// Every value `request` holds for (field, key), folded the way the tree's keys are, so that a
// stub filed under value V can only match when V is among them. Empty when the field is absent.
// Computed once per request and cached in the context; shared by the interpreter and by
// compiled code.
const std::vector<std::string>& request_values(RequestContext& context, Field field,
                                               std::string_view key);

// The text a request's method or path is looked up by: the text itself when it is ASCII (the
// tables fold ASCII case as they hash), otherwise its JavaScript lower case, which is what the
// evaluator compares. The server's paths are always ASCII (runtime/http/url_path.cpp
// percent-encodes every other byte); `scratch` holds the lower-cased copy when one is needed.
std::string_view lookup_text(std::string_view text, std::string& scratch);

}  // namespace rift::plan
