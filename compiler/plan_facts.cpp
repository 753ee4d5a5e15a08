// Dispatch facts: what a predicate demands of every request it matches (see plan_facts.h).
//
// Each rule below restates, for one operator and field, when Mountebank's comparison
// (compiler/predicate_eval.cpp) can only hold if the request has a given folded value:
//
// - equals / deepEquals on `method` or `path` with a string: the folded request value equals
//   the folded string. Exact, so such a predicate is decidable when not caseSensitive.
// - startsWith on `path`: the folded path starts with the folded string. Exact likewise.
// - matches on `path` with `^literal...`: the path starts with the literal (ignoring case unless
//   caseSensitive); with `^literal$` it is the literal. Never decidable: the regex stays.
// - equals / deepEquals on `query` or `headers` {key: "v"}: some request value of that key (a
//   repeated key gives several) folds to "v". deepEquals compares the whole object, which needs
//   that too.
// - equals with `jsonpath` on `body` "v", not caseSensitive: some value the selector reaches in
//   the lower-cased body (each element when it reaches one array) is "v" as a string.
// - equals on `body` {key: scalar, ...}, not caseSensitive: the parsed body's `key` (or an
//   element of it when it is an array; or, for a JSON array body, the same of any element) is
//   the scalar as a string. request_values serves it under the selector `$.key`.
//
// caseSensitive keeps every rule but decidability: a folded match is necessary for an exact one.
// `except` rewrites the request value before comparing and `xpath` selects from it, so neither
// gives facts; nor does a predicate with two keys that fold to one name (JavaScript keeps the
// last), nor any value that is not printable ASCII (the evaluator folds with JavaScript's Unicode
// rules, the tables with ASCII ones).
#include "compiler/plan_facts.h"

#include <algorithm>
#include <cctype>

#include "compiler/ascii.h"
#include "compiler/jsonpath.h"
#include "compiler/predicate_value.h"
#include "compiler/regex_literals.h"

namespace rift::plan {
namespace {

bool printable_ascii(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c <= 0x7E; });
}

// A non-empty ASCII string (control characters included: a tcp request's data holds line ends
// and binary bytes). Past ASCII the tables' ASCII folding and the evaluator's JavaScript lower
// case differ, so such texts stay residual checks.
std::optional<std::string> text_of(const ir::Json& value) {
  if (!value.is_string()) return std::nullopt;
  const auto& text = value.get_ref<const std::string&>();
  if (text.empty() ||
      !std::all_of(text.begin(), text.end(), [](char c) { return (c & 0x80) == 0; })) {
    return std::nullopt;
  }
  return text;
}

// A string, or a number as JavaScript's String() writes it: what `equals` compares it as.
std::optional<std::string> scalar_text(const ir::Json& value) {
  if (value.is_number()) {
    const std::string text = js::to_string(value);
    return printable_ascii(text) ? std::optional<std::string>(text) : std::nullopt;
  }
  return text_of(value);
}

// The members of an object named as the evaluator names them (folded unless caseSensitive);
// nothing when two names fold to one.
using Members = std::vector<std::pair<std::string, const ir::Json*>>;
std::optional<Members> folded_members(const ir::Json& object, bool case_sensitive) {
  Members out;
  for (auto it = object.begin(); it != object.end(); ++it) {
    std::string name = case_sensitive ? it.key() : js::lower(it.key());
    for (const auto& member : out) {
      if (member.first == name) return std::nullopt;
    }
    out.emplace_back(std::move(name), &it.value());
  }
  return out;
}

using Value = Tree::StubKeys::Value;

// {key: "v", ...} on query or headers: the first member with a usable key and string value.
std::optional<Value> key_value_fact(Field field, const ir::Json& expected, bool case_sensitive) {
  if (!expected.is_object()) return std::nullopt;
  const auto members = folded_members(expected, case_sensitive);
  if (!members) return std::nullopt;
  for (const auto& [name, value] : *members) {
    const auto text = text_of(*value);
    if (!printable_ascii(name) || !text) continue;
    return Value{field, ascii::lower(name), ascii::lower(*text)};
  }
  return std::nullopt;
}

// equals {body: {key: scalar, ...}}: the first top-level scalar member, as the selector `$.key`.
std::optional<Value> body_object_fact(const ir::Json& expected) {
  const auto members = folded_members(expected, false);
  if (!members) return std::nullopt;
  for (const auto& [name, value] : *members) {
    const auto text = scalar_text(*value);
    if (!plain_identifier(name) || !text) continue;
    return Value{Field::kBodySelector, "$." + name, ascii::lower(*text)};
  }
  return std::nullopt;
}

// equals {body: "v"} with a jsonpath selector, not caseSensitive.
Facts selector_facts(const ir::Predicate& predicate, const Members& members) {
  Facts facts;
  if (predicate.op != ir::Op::kEquals || predicate.case_sensitive) return facts;
  const std::string selector = js::lower(*predicate.jsonpath);
  if (!printable_ascii(selector) || jsonpath::Path::parse(selector).index() != 0) return facts;
  for (const auto& [name, value] : members) {
    const auto text = text_of(*value);
    if (name == "body" && text) {
      facts.value = Value{Field::kBodySelector, selector, ascii::lower(*text)};
    }
  }
  return facts;
}

Facts field_facts(const ir::Predicate& predicate) {
  Facts facts;
  const ir::Op op = predicate.op;
  if (op == ir::Op::kScenario) {
    // Filed under its folded state; the gate stays a check, which compares exactly.
    facts.value = Value{Field::kScenario, predicate.fields.value("scenarioName", ""),
                        ascii::lower(predicate.fields.value("requiredScenarioState", ""))};
    return facts;
  }
  const bool exact = op == ir::Op::kEquals || op == ir::Op::kDeepEquals;
  if (!exact && op != ir::Op::kStartsWith && op != ir::Op::kMatches && op != ir::Op::kContains &&
      op != ir::Op::kEndsWith) {
    return facts;
  }
  if (!predicate.except.empty() || predicate.xpath || !predicate.fields.is_object()) return facts;
  const auto members = folded_members(predicate.fields, predicate.case_sensitive);
  if (!members) return facts;
  if (predicate.jsonpath) return selector_facts(predicate, *members);

  size_t decided = 0;  // fields whose whole demand is a method, path or prefix fact
  for (const auto& [name, value] : *members) {
    const auto text = text_of(*value);
    if (name == "method" && exact && text) {
      facts.method = ascii::upper(*text);
      ++decided;
    } else if (name == "path" && exact && text) {
      facts.path = ascii::lower(*text);
      ++decided;
    } else if (name == "path" && op == ir::Op::kStartsWith && text) {
      facts.prefix = ascii::lower(*text);
      ++decided;
    } else if (name == "path" && op == ir::Op::kMatches && text) {
      if (auto head = regex_head(*text)) {
        (head->whole ? facts.path : facts.prefix) = ascii::lower(head->literal);
      } else if (auto required = regex_required_literal(*text, !predicate.case_sensitive);
                 !required.empty()) {
        facts.substring = std::move(required);
      }
    } else if (name == "path" && (op == ir::Op::kContains || op == ir::Op::kEndsWith) && text &&
               !text->empty()) {
      facts.substring = ascii::lower(*text);
    } else if ((name == "query" || name == "headers") && exact && !facts.value) {
      facts.value = key_value_fact(name == "query" ? Field::kQuery : Field::kHeader, *value,
                                   predicate.case_sensitive);
    } else if (name == "body" && op == ir::Op::kEquals && !predicate.case_sensitive &&
               value->is_object() && !facts.value) {
      facts.value = body_object_fact(*value);
    }
  }
  facts.decidable = op != ir::Op::kMatches && !predicate.case_sensitive && decided > 0 &&
                    decided == members->size();
  return facts;
}

// A predicate that can fail with an error at request time (an xpath selector with an unbound
// prefix, an injection).
bool can_throw(const ir::Predicate& predicate) {
  if (predicate.xpath || predicate.op == ir::Op::kInject) return true;
  return std::any_of(predicate.children.begin(), predicate.children.end(), can_throw);
}

// A tcp predicate as the http facts read it: `data` is what the tree files under "path" (a tcp
// request's dispatch text is in Request::path), and every other member is renamed out of the
// way, since a tcp request has no method, path, query, headers or body to dispatch on.
ir::Predicate as_http_facts(const ir::Predicate& predicate) {
  ir::Predicate renamed = predicate;
  if (!predicate.fields.is_object()) return renamed;
  renamed.fields = ir::Json::object();
  for (const auto& [name, value] : predicate.fields.items()) {
    renamed.fields[name == "data" ? std::string("path") : "tcp:" + name] = value;
  }
  return renamed;
}

void collect(const ir::Predicate& predicate, size_t index, bool nested, Protocol protocol,
             bool& may_have_thrown, std::vector<Facts>& out) {
  if (may_have_thrown) return;
  if (predicate.op == ir::Op::kAnd) {
    for (const auto& child : predicate.children) {
      collect(child, index, true, protocol, may_have_thrown, out);
    }
    return;
  }
  Facts facts = field_facts(protocol == Protocol::kTcp ? as_http_facts(predicate) : predicate);
  facts.predicate = index;
  if (nested) facts.decidable = false;
  if (facts.method || facts.path || facts.prefix || facts.substring || facts.value) {
    out.push_back(std::move(facts));
  }
  may_have_thrown = can_throw(predicate);
}

}  // namespace

bool plain_identifier(std::string_view name) {
  if (name.empty() || name == "length") return false;
  if (!(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

std::vector<Facts> stub_facts(const std::vector<ir::Predicate>& predicates, Protocol protocol) {
  std::vector<Facts> out;
  bool may_have_thrown = false;
  for (size_t index = 0; index < predicates.size(); ++index) {
    collect(predicates[index], index, false, protocol, may_have_thrown, out);
  }
  return out;
}

}  // namespace rift::plan
