// Shadowed and duplicate stubs, proven (see analysis.h).
//
// Each stub's predicate list is lowered to a conjunction of *atoms*: one per top-level field of a
// plain field predicate (and one per key of `query`/`headers`, which are always objects), an
// `or` node, or an opaque whole predicate compared by identity. `and` is flattened into its
// children. Stub i shadows a later stub j when every atom of i is implied by j: it is one of j's
// atoms, or follows from a value j's `equals` pins exactly (a "fact"). Every rule below is a
// statement about predicate_eval.cpp's semantics; when in doubt an atom stays opaque, which can
// only lose findings, never invent them.
#include "compiler/analysis.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>

#include "compiler/predicate_json.h"
#include "compiler/predicate_value.h"
#include "compiler/regex.h"

namespace rift::analysis {
namespace {

struct Atom {
  enum class Kind { kField, kOr, kOpaque };
  Kind kind = Kind::kOpaque;
  int id = -1;  // interned identity: equal ids mean the same test on the request
  // kField: `op` on request field `field` (and key `subkey` of it), value normalized as the
  // evaluator normalizes the expected side (keys and, except for `matches`, strings folded).
  ir::Op op = ir::Op::kEquals;
  bool case_sensitive = false;
  std::string field;
  std::optional<std::string> subkey;
  nlohmann::json value;
  std::shared_ptr<const Regex> regex;  // `matches` with a string pattern
  // kOr: the alternatives, each a conjunction.
  std::vector<std::vector<Atom>> alternatives;
};

// A value j's `equals` pins: the request field (or key) equals `value`, folded unless
// case_sensitive (then it is the exact request text).
struct Fact {
  bool case_sensitive = false;
  std::string field;
  std::optional<std::string> subkey;
  std::string value;
};

struct StubFacts {
  std::vector<Atom> atoms;
  std::vector<int> ids;  // sorted atom ids, for identity lookups
  std::vector<Fact> facts;
  // Bucket keys: the first folded method/path a plain equals atom demands (stub as shadower),
  // and the first method/path fact (stub as shadowed); see analyze().
  std::optional<std::string> method_key, path_key;
  std::optional<std::string> method_fact, path_fact;
};

class Interner {
 public:
  int id(const std::string& key) {
    return ids_.try_emplace(key, static_cast<int>(ids_.size())).first->second;
  }

 private:
  std::unordered_map<std::string, int> ids_;
};

// The expected side as the evaluator sees it: keys folded when not case-sensitive, strings
// folded too unless the operator is `matches`. Object keys sort (member order is irrelevant:
// members form a conjunction). Nullopt when folding makes two keys collide (JavaScript's "last
// one wins" would make key order meaningful; stay opaque instead).
std::optional<nlohmann::json> normalize_value(const ir::Json& value, bool fold_keys,
                                              bool fold_values) {
  if (value.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (auto it = value.begin(); it != value.end(); ++it) {
      std::string key = fold_keys ? js::lower(it.key()) : it.key();
      if (out.contains(key)) return std::nullopt;
      auto child = normalize_value(it.value(), fold_keys, fold_values);
      if (!child) return std::nullopt;
      out[key] = std::move(*child);
    }
    return out;
  }
  if (value.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& element : value) {
      auto child = normalize_value(element, fold_keys, fold_values);
      if (!child) return std::nullopt;
      out.push_back(std::move(*child));
    }
    return out;
  }
  if (value.is_string()) {
    const auto& text = value.get_ref<const std::string&>();
    return fold_values ? js::lower(text) : text;
  }
  if (value.is_boolean()) return value.get<bool>();
  if (value.is_number_unsigned()) return value.get<uint64_t>();
  if (value.is_number_integer()) return value.get<int64_t>();
  if (value.is_number()) return value.get<double>();
  return nlohmann::json(nullptr);
}

// A predicate's identity: its Mountebank JSON with object keys sorted, since member order means
// nothing unless two keys fold together (then the ordered text is kept).
std::optional<nlohmann::json> sorted_json(const ir::Json& value) {
  if (value.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    std::vector<std::string> folded;
    for (auto it = value.begin(); it != value.end(); ++it) {
      folded.push_back(js::lower(it.key()));
      auto child = sorted_json(it.value());
      if (!child) return std::nullopt;
      out[it.key()] = std::move(*child);
    }
    std::sort(folded.begin(), folded.end());
    if (std::adjacent_find(folded.begin(), folded.end()) != folded.end()) return std::nullopt;
    return out;
  }
  if (value.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& element : value) {
      auto child = sorted_json(element);
      if (!child) return std::nullopt;
      out.push_back(std::move(*child));
    }
    return out;
  }
  return normalize_value(value, false, false);
}

std::string identity(const ir::Predicate& predicate) {
  const ir::Json json = predicate_to_json(predicate);
  auto sorted = sorted_json(json);
  return sorted ? "S" + sorted->dump() : "O" + json.dump();
}

bool is_field_op(ir::Op op) {
  switch (op) {
    case ir::Op::kEquals:
    case ir::Op::kContains:
    case ir::Op::kStartsWith:
    case ir::Op::kEndsWith:
    case ir::Op::kMatches:
    case ir::Op::kExists:
      return true;
    default:
      return false;  // deepEquals compares whole canonical forms: identity only
  }
}

Atom field_atom(Interner& interner, const ir::Predicate& predicate, std::string field,
                std::optional<std::string> subkey, nlohmann::json value) {
  Atom atom;
  atom.kind = Atom::Kind::kField;
  atom.op = predicate.op;
  atom.case_sensitive = predicate.case_sensitive;
  atom.field = std::move(field);
  atom.subkey = std::move(subkey);
  atom.value = std::move(value);
  if (atom.op == ir::Op::kMatches && atom.value.is_string()) {
    auto compiled = Regex::compile(atom.value.get<std::string>(), !atom.case_sensitive);
    if (compiled.index() == 0) {
      atom.regex = std::make_shared<const Regex>(std::get<0>(std::move(compiled)));
    }
  }
  std::string key = "F";
  key += ir::op_name(atom.op);
  key += atom.case_sensitive ? "\x1f"
                               "1"
                             : "\x1f"
                               "0";
  key += '\x1f' + atom.field + '\x1f';
  key += atom.subkey ? "1" + *atom.subkey : "0";
  key += '\x1f' + atom.value.dump();
  atom.id = interner.id(key);
  return atom;
}

void lower_predicate(Interner& interner, const ir::Predicate& predicate, std::vector<Atom>& out);

// A plain field predicate as one atom per field; nullopt when it must stay opaque.
std::optional<std::vector<Atom>> split_fields(Interner& interner, const ir::Predicate& predicate) {
  if (!is_field_op(predicate.op) || !predicate.except.empty() || predicate.jsonpath ||
      predicate.xpath || !predicate.fields.is_object()) {
    return std::nullopt;
  }
  const bool fold_keys = !predicate.case_sensitive;
  const bool fold_values = fold_keys && predicate.op != ir::Op::kMatches;
  auto normalized = normalize_value(predicate.fields, fold_keys, fold_values);
  if (!normalized) return std::nullopt;
  std::vector<Atom> atoms;
  for (auto& [field, value] : normalized->items()) {
    // query and headers are always objects in the request model, so `{"query": {"a": .., "b":
    // ..}}` holds exactly when each key's test holds: split them too.
    if ((field == "query" || field == "headers") && value.is_object()) {
      for (auto& [key, member] : value.items()) {
        atoms.push_back(field_atom(interner, predicate, field, key, member));
      }
    } else {
      atoms.push_back(field_atom(interner, predicate, field, std::nullopt, value));
    }
  }
  return atoms;
}

void lower_predicate(Interner& interner, const ir::Predicate& predicate, std::vector<Atom>& out) {
  if (predicate.op == ir::Op::kAnd) {  // a conjunction of its children, modifiers and all
    for (const auto& child : predicate.children) lower_predicate(interner, child, out);
    return;
  }
  if (auto atoms = split_fields(interner, predicate)) {
    for (auto& atom : *atoms) out.push_back(std::move(atom));
    return;
  }
  Atom atom;
  atom.kind = predicate.op == ir::Op::kOr ? Atom::Kind::kOr : Atom::Kind::kOpaque;
  atom.id = interner.id("P" + identity(predicate));
  if (atom.kind == Atom::Kind::kOr) {
    for (const auto& child : predicate.children) {
      std::vector<Atom> alternative;
      lower_predicate(interner, child, alternative);
      atom.alternatives.push_back(std::move(alternative));
    }
  }
  out.push_back(std::move(atom));
}

StubFacts stub_facts(Interner& interner, const ir::Stub& stub) {
  StubFacts facts;
  for (const auto& predicate : stub.predicates) lower_predicate(interner, predicate, facts.atoms);
  for (const auto& atom : facts.atoms) {
    facts.ids.push_back(atom.id);
    if (atom.kind != Atom::Kind::kField || atom.op != ir::Op::kEquals || !atom.value.is_string()) {
      continue;
    }
    Fact fact{atom.case_sensitive, atom.field, atom.subkey, atom.value.get<std::string>()};
    if (!fact.subkey) {
      const std::string folded = fact.case_sensitive ? js::lower(fact.value) : fact.value;
      if (fact.field == "method") {
        if (!facts.method_fact) facts.method_fact = folded;
        if (!fact.case_sensitive && !facts.method_key) facts.method_key = folded;
      } else if (fact.field == "path") {
        if (!facts.path_fact) facts.path_fact = folded;
        if (!fact.case_sensitive && !facts.path_key) facts.path_key = folded;
      }
    }
    facts.facts.push_back(std::move(fact));
  }
  std::sort(facts.ids.begin(), facts.ids.end());
  return facts;
}

// Does j's fact make atom `a` hold? The request value the fact pins (or, for an array of
// values, one element of it) satisfies `a`'s test, which is what the evaluator asks of a
// single value or of some element.
bool fact_implies(const Fact& fact, const Atom& a) {
  if (fact.field != a.field || fact.subkey != a.subkey) return false;
  if (a.case_sensitive && !fact.case_sensitive) return false;  // folded facts lose the case
  // Folded request keys can collide ("A=1&a=2"), so across case modes only top-level fields
  // (whose names are fixed lower-case words) carry over.
  if (a.subkey && a.case_sensitive != fact.case_sensitive) return false;
  if (a.op == ir::Op::kMatches) {
    // `matches` never folds the request value: only an exact (case-sensitive) fact tells it.
    return fact.case_sensitive && a.regex && a.regex->test(fact.value);
  }
  const std::string value =
      fact.case_sensitive && !a.case_sensitive ? js::lower(fact.value) : fact.value;
  if (a.op == ir::Op::kExists) {
    if (!a.value.is_boolean()) return false;
    return a.value.get<bool>() ? !value.empty() : value.empty();
  }
  if (!a.value.is_string()) return false;
  const auto& expected = a.value.get_ref<const std::string&>();
  switch (a.op) {
    case ir::Op::kEquals:
      return value == expected;
    case ir::Op::kStartsWith:
      return value.starts_with(expected);
    case ir::Op::kEndsWith:
      return value.ends_with(expected);
    case ir::Op::kContains:
      return value.find(expected) != std::string::npos;
    default:
      return false;
  }
}

bool implied(const Atom& a, const StubFacts& j) {
  if (std::binary_search(j.ids.begin(), j.ids.end(), a.id)) return true;
  if (a.kind == Atom::Kind::kOr) {
    return std::any_of(a.alternatives.begin(), a.alternatives.end(), [&](const auto& conjunction) {
      return std::all_of(conjunction.begin(), conjunction.end(),
                         [&](const Atom& child) { return implied(child, j); });
    });
  }
  if (a.kind != Atom::Kind::kField) return false;
  return std::any_of(j.facts.begin(), j.facts.end(),
                     [&](const Fact& fact) { return fact_implies(fact, a); });
}

bool shadows(const StubFacts& i, const StubFacts& j) {
  return std::all_of(i.atoms.begin(), i.atoms.end(),
                     [&](const Atom& atom) { return implied(atom, j); });
}

// Order-insensitive identity of a predicate list.
std::string duplicate_key(const ir::Stub& stub) {
  std::vector<std::string> parts;
  for (const auto& predicate : stub.predicates) parts.push_back(identity(predicate));
  std::sort(parts.begin(), parts.end());
  std::string key;
  for (const auto& part : parts) key += part + '\x1e';
  return key;
}

std::string predicates_text(const ir::Stub& stub) {
  ir::Json list = ir::Json::array();
  for (const auto& predicate : stub.predicates) list.push_back(predicate_to_json(predicate));
  std::string text = list.dump();
  constexpr size_t kMax = 160;  // keep the sentence readable for large predicates
  if (text.size() > kMax) text = text.substr(0, kMax) + "...";
  return text;
}

std::string shadow_reason(const std::vector<ir::Stub>& stubs, int stub, int by) {
  const std::string head = "stub " + std::to_string(stub) + " can never match: ";
  if (stubs[by].predicates.empty()) {
    return head + "the earlier stub " + std::to_string(by) +
           " has no predicates, so it answers every request first";
  }
  return head + "every request it matches also matches the earlier stub " + std::to_string(by) +
         ", whose predicates " + predicates_text(stubs[by]) + " follow from stub " +
         std::to_string(stub) + "'s";
}

using BucketKey = std::pair<std::optional<std::string>, std::optional<std::string>>;

}  // namespace

const char* kind_name(Finding::Kind kind) {
  return kind == Finding::Kind::kDuplicate ? "duplicate" : "shadowed";
}

std::vector<Finding> analyze(const std::vector<ir::Stub>& stubs) {
  Interner interner;
  std::vector<StubFacts> facts;
  facts.reserve(stubs.size());
  for (const auto& stub : stubs) facts.push_back(stub_facts(interner, stub));

  std::vector<Finding> findings;
  std::unordered_map<std::string, int> first_with_key;
  // Stubs seen so far, by the method/path they demand (unset: any). A shadower demanding method
  // M needs the shadowed stub to pin M too, so only four buckets can hold a shadower of j.
  std::map<BucketKey, std::vector<int>> buckets;

  for (size_t index = 0; index < stubs.size(); ++index) {
    const int j = static_cast<int>(index);
    const StubFacts& mine = facts[index];
    auto [duplicate, fresh] = first_with_key.try_emplace(duplicate_key(stubs[index]), j);
    if (!fresh) {
      const int by = duplicate->second;
      findings.push_back({Finding::Kind::kDuplicate, j, by,
                          "stub " + std::to_string(j) + " duplicates stub " + std::to_string(by) +
                              ": the same predicates, so stub " + std::to_string(by) +
                              " always answers first"});
    } else {
      int best = j;
      auto search = [&](const BucketKey& key) {
        auto bucket = buckets.find(key);
        if (bucket == buckets.end()) return;
        for (int i : bucket->second) {  // ascending
          if (i >= best) break;
          if (shadows(facts[static_cast<size_t>(i)], mine)) {
            best = i;
            break;
          }
        }
      };
      search({std::nullopt, std::nullopt});
      if (mine.path_fact) search({std::nullopt, mine.path_fact});
      if (mine.method_fact) {
        search({mine.method_fact, std::nullopt});
        if (mine.path_fact) search({mine.method_fact, mine.path_fact});
      }
      if (best < j) {
        findings.push_back({Finding::Kind::kShadowed, j, best, shadow_reason(stubs, j, best)});
      }
    }
    buckets[{mine.method_key, mine.path_key}].push_back(j);
  }
  return findings;
}

}  // namespace rift::analysis
