#include "tests/equivalence/stub_grammar.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string_view>

#include "compiler/ascii.h"
#include "compiler/jsonpath.h"
#include "compiler/predicate_eval.h"
#include "compiler/predicate_value.h"
#include "compiler/scenarios.h"
#include "compiler/xpath.h"
#include "tests/equivalence/vocabulary.h"

namespace rift::equivalence {
namespace {

namespace vocab = vocabulary;

constexpr ir::Op kFieldOps[] = {
    ir::Op::kEquals,   ir::Op::kEquals,     ir::Op::kEquals,   ir::Op::kDeepEquals,
    ir::Op::kContains, ir::Op::kStartsWith, ir::Op::kEndsWith, ir::Op::kMatches,
    ir::Op::kMatches,  ir::Op::kExists,
};

bool is_scalar_field(const std::string& name) {
  return name == "method" || name == "path";
}

std::string percent_encode_non_ascii(const std::string& text) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x80) {
      out += c;
    } else {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 0xF];
    }
  }
  return out;
}

std::string urlencode(const KeyValues& pairs) {
  std::string out;
  for (const auto& [key, value] : pairs) {
    if (!out.empty()) out += '&';
    out += key + '=' + value;
  }
  return out;
}

// Replaces every pair whose key names `key` (ignoring case when `fold`).
void erase_key(KeyValues& pairs, const std::string& key, bool fold) {
  std::erase_if(pairs, [&](const auto& pair) {
    return fold ? js::lower(pair.first) == js::lower(key) : pair.first == key;
  });
}

// Every array in a JSON value, reversed: the same multiset in another order.
bool reverse_arrays(ir::Json& value) {
  bool changed = false;
  if (value.is_array()) {
    if (value.size() > 1) {
      std::reverse(value.begin(), value.end());
      changed = true;
    }
    for (auto& element : value) changed = reverse_arrays(element) || changed;
  } else if (value.is_object()) {
    for (auto& [key, element] : value.items()) changed = reverse_arrays(element) || changed;
  }
  return changed;
}

}  // namespace

namespace {

// Judged with slow paths only (the oracle of the fast ones): a fast path that wrongly fails a
// predicate must not steer the generator away from the requests that would show it.
bool holds_prepared(const PreparedPredicate& predicate, const Request& request) {
  RequestContext context(request);
  context.set_slow_paths(true);
  try {
    return predicate.evaluate(context);
  } catch (const EvalError&) {
    return false;
  }
}

}  // namespace

bool holds(const ir::Predicate& predicate, const Request& request) {
  auto prepared = PreparedPredicate::prepare(predicate);
  return prepared.index() == 0 && holds_prepared(std::get<0>(prepared), request);
}

// ---------------------------------------------------------------------------------------------
// Stubs.

std::vector<ir::Stub> StubGrammar::stubs(int count, Shape shape) {
  shape_ = shape;
  std::vector<ir::Stub> out;
  for (int i = 0; i < count; ++i) {
    if (!out.empty() && chance(shape.sibling)) {
      out.push_back(sibling(pick(out)));
      if (shape.spaced > 0 && chance(30)) out.back().space = pick(vocab::spaces());
      continue;
    }
    ir::Stub stub;
    stub.responses.push_back(ir::Response{});
    if (!chance(shape.catch_all)) {
      const int predicates = 1 + static_cast<int>(below(3));
      for (int p = 0; p < predicates; ++p) {
        // The shapes the planner dispatches on, often first, so that many stubs are filed under
        // method/path keys while others stay wildcards.
        if (chance(p == 0 ? shape.dispatch : 15)) {
          stub.predicates.push_back(dispatch_predicate());
        } else {
          stub.predicates.push_back(predicate(0));
        }
      }
    }
    if (shape.spaced > 0 && chance(shape.spaced)) stub.space = pick(vocab::spaces());
    if (shape.scenario > 0 && chance(shape.scenario)) {
      // As the stub parser does (frontends/rift_block.h): the gate goes first.
      stub.scenario_name = pick(vocab::scenario_names());
      stub.required_scenario_state = pick(vocab::scenario_states());
      stub.predicates.insert(stub.predicates.begin(),
                             scenario_gate(*stub.scenario_name, *stub.required_scenario_state));
    }
    out.push_back(std::move(stub));
  }
  if (!out.empty() && chance(shape.invalid)) {
    auto& predicates = out[below(out.size())].predicates;
    const size_t at = below(predicates.size() + 1);
    predicates.insert(predicates.begin() + static_cast<std::ptrdiff_t>(at), invalid_predicate());
  }
  return out;
}

ir::Predicate StubGrammar::dispatch_predicate() {
  if (chance(40)) {
    ir::Predicate dispatch;
    dispatch.op = chance(90) ? ir::Op::kEquals : ir::Op::kDeepEquals;
    const size_t shape = below(3);
    if (shape != 1) dispatch.fields[field_name("method", false)] = pick(vocab::stub_methods());
    if (shape != 0) dispatch.fields[field_name("path", false)] = pick(vocab::stub_paths());
    // A key that folds onto an earlier one: JavaScript keeps the last value.
    if (chance(4)) dispatch.fields[chance(50) ? "METHOD" : "Path"] = chance(50) ? "POST" : "/a";
    return dispatch;
  }
  ir::Predicate routing = routing_predicate();
  if (!chance(10)) return routing;
  // Facts inside an `and` are necessary too; a predicate before them may throw.
  ir::Predicate all;
  all.op = ir::Op::kAnd;
  all.children.push_back(chance(50) ? predicate(1) : dispatch_predicate());
  all.children.insert(chance(50) ? all.children.begin() : all.children.end(), std::move(routing));
  return all;
}

ir::Predicate StubGrammar::routing_predicate() {
  ir::Predicate out;
  out.case_sensitive = chance(15);
  const size_t kind = below(100);
  if (kind < 22) {
    out.op = ir::Op::kStartsWith;
    out.fields[field_name("path", out.case_sensitive)] = pick(vocab::path_prefixes());
  } else if (kind < 44) {
    out.op = ir::Op::kMatches;
    out.fields[field_name("path", out.case_sensitive)] = pick(vocab::path_patterns()).first;
  } else if (kind < 74) {
    // One exact query or header value, maybe beside a method or path, maybe a second key.
    out.op = chance(80) ? ir::Op::kEquals : ir::Op::kDeepEquals;
    const bool query = chance(55);
    const auto& keys = query ? vocab::query_keys() : vocab::header_names();
    ir::Json values = ir::Json::object();
    values[pick(keys)] = pick(vocab::values());
    if (chance(20)) values[pick(keys)] = pick(vocab::values());
    out.fields[field_name(query ? "query" : "headers", out.case_sensitive)] = std::move(values);
    if (chance(25)) out.fields["method"] = pick(vocab::stub_methods());
    if (chance(25)) out.fields["path"] = pick(vocab::stub_paths());
  } else if (kind < 87) {
    out.op = ir::Op::kEquals;
    out.jsonpath = pick(vocab::jsonpath_selectors());
    if (chance(20)) out.jsonpath = ascii::upper(*out.jsonpath);
    out.fields["body"] = pick(vocab::selected_values());
  } else {
    // The object form: some scalar members of a JSON body, now and then one value changed.
    out.op = ir::Op::kEquals;
    const ir::Json document = ir::Json::parse(pick(vocab::json_bodies()));
    const ir::Json& source = document.is_array() && !document.empty() ? document[0] : document;
    ir::Json members = ir::Json::object();
    if (source.is_object()) {
      for (const auto& [key, value] : source.items()) {
        if ((value.is_string() || value.is_number()) && (members.empty() || chance(40))) {
          members[chance(10) ? ascii::upper(key) : key] =
              chance(15) ? ir::Json(pick(vocab::selected_values())) : value;
        }
      }
    }
    if (members.empty()) members["id"] = chance(50) ? ir::Json(1) : ir::Json("2");
    out.fields["body"] = std::move(members);
  }
  return out;
}

ir::Stub StubGrammar::sibling(const ir::Stub& stub) {
  ir::Stub out = stub;
  for (auto& predicate : out.predicates) {
    if (chance(80)) revalue(predicate);
  }
  return out;
}

void StubGrammar::revalue(ir::Predicate& predicate) {
  for (auto& child : predicate.children) revalue(child);
  if (!predicate.fields.is_object()) return;
  for (auto& [name, value] : predicate.fields.items()) {
    const std::string field = js::lower(name);
    if (predicate.jsonpath && field == "body" && value.is_string()) {
      value = pick(vocab::selected_values());
    } else if ((field == "query" || field == "headers") && value.is_object() && !value.empty()) {
      value.begin().value() = pick(vocab::values());
    } else if (field == "body" && value.is_object() && !value.empty()) {
      value.begin().value() =
          chance(50) ? ir::Json(pick(vocab::selected_values())) : ir::Json(below(10));
    }
  }
}

// Creation must fail, with the same error, on every side; sometimes the culprit is nested.
ir::Predicate StubGrammar::invalid_predicate() {
  ir::Predicate out;
  out.op = ir::Op::kMatches;
  const size_t kind = below(3);
  if (kind == 0) {
    out.fields["path"] = pick(vocab::invalid_patterns());
  } else if (kind == 1) {
    out.op = ir::Op::kEquals;
    out.fields["path"] = "/a";
    out.except = pick(vocab::invalid_patterns());
  } else {
    out.op = ir::Op::kExists;
    out.fields["body"] = true;
    out.xpath = ir::XPathSelector{"//[", {}};
  }
  if (chance(30)) {
    ir::Predicate wrapper;
    wrapper.op = chance(50) ? ir::Op::kNot : ir::Op::kOr;
    wrapper.children.push_back(std::move(out));
    return wrapper;
  }
  return out;
}

ir::Predicate StubGrammar::predicate(int depth) {
  if (depth < 2 && chance(15)) {
    ir::Predicate out;
    const size_t kind = below(3);
    out.op = kind == 0 ? ir::Op::kNot : kind == 1 ? ir::Op::kOr : ir::Op::kAnd;
    const size_t children = out.op == ir::Op::kNot ? 1 : below(4);
    for (size_t i = 0; i < children; ++i) out.children.push_back(predicate(depth + 1));
    return out;
  }
  return field_predicate();
}

ir::Predicate StubGrammar::field_predicate() {
  if (shape_.body_focus > 0 && chance(shape_.body_focus)) return body_predicate();
  ir::Predicate out;
  out.op = kFieldOps[below(std::size(kFieldOps))];
  out.case_sensitive = chance(20);
  if (chance(12)) out.except = pick(vocab::except_patterns());
  const size_t selector = below(100);
  if (selector < 10) {
    out.jsonpath = pick(vocab::jsonpath_selectors());
  } else if (selector < 20) {
    const auto& word = pick(vocab::xpath_selectors());
    ir::XPathSelector xpath;
    xpath.selector = word.selector;
    if (!word.prefix.empty())
      xpath.ns[word.prefix] = chance(80) ? word.uri : ascii::upper(word.uri);
    out.xpath = std::move(xpath);
  }
  out.fields = fields_for(out.op, out.jsonpath || out.xpath);
  // Field names fold unless caseSensitive; with it, "PATH" names nothing.
  if (chance(15)) {
    ir::Json renamed = ir::Json::object();
    for (const auto& [key, value] : out.fields.items()) {
      renamed[field_name(key, out.case_sensitive)] = value;
    }
    out.fields = std::move(renamed);
  }
  // A few become `inject` predicates, chosen from draws already made so the random stream (and
  // every other generated case) stays as it was.
  if (selector >= 20 && selector < 20 + vocab::inject_sources().size()) {
    ir::Predicate inject;
    inject.op = ir::Op::kInject;
    inject.inject = vocab::inject_sources()[selector - 20];
    return inject;
  }
  return out;
}

ir::Predicate StubGrammar::body_predicate() {
  ir::Predicate out;
  out.op = kFieldOps[below(std::size(kFieldOps))];
  const size_t kind = below(100);
  // Folding lower-cases the body text before it is parsed: `<![CDATA[` and `<!DOCTYPE` then no
  // longer parse, so xpath predicates keep the case more often.
  out.case_sensitive = chance(kind >= 40 && kind < 75 ? 50 : 20);
  if (chance(10)) out.except = pick(vocab::except_patterns());
  if (kind < 40) {
    out.jsonpath = pick(vocab::jsonpath_selectors());
    if (chance(10)) out.jsonpath = ascii::upper(*out.jsonpath);
    out.fields["body"] = selected_value(out.op, out, pick(vocab::json_bodies()));
  } else if (kind < 75) {
    const auto& word = pick(vocab::xpath_selectors());
    ir::XPathSelector xpath;
    xpath.selector = word.selector;
    if (!word.prefix.empty() && chance(90)) {
      xpath.ns[word.prefix] = chance(80) ? word.uri : ascii::upper(word.uri);
    }
    out.xpath = std::move(xpath);
    out.fields["body"] = selected_value(out.op, out, pick(vocab::xml_bodies()));
  } else {
    // An expected object or array: a subset of a document for most operators, the whole
    // document (its arrays perhaps reordered) for deepEquals, which sorts arrays.
    ir::Json document = ir::Json::parse(pick(vocab::json_bodies()));
    if (out.op == ir::Op::kDeepEquals && chance(70)) {
      if (chance(50)) reverse_arrays(document);
      out.fields["body"] = std::move(document);
    } else {
      out.fields["body"] = body_for(out.op == ir::Op::kMatches ? ir::Op::kEquals : out.op);
      if (out.op == ir::Op::kMatches && !out.fields["body"].is_structured()) {
        out.fields["body"] = ir::Json{{"id", "\\d"}};
      }
    }
  }
  if (chance(10)) {
    ir::Json renamed = ir::Json::object();
    for (const auto& [key, value] : out.fields.items()) {
      renamed[field_name(key, out.case_sensitive)] = value;
    }
    out.fields = std::move(renamed);
  }
  return out;
}

// What a selector finds in `document`, made into an expected value for `op`: the text of one
// result (a part of it for contains, startsWith and endsWith, an escaped pattern for matches),
// or for deepEquals the result itself. Now and then a vocabulary value instead, so that the
// predicate also misses.
ir::Json StubGrammar::selected_value(ir::Op op, const ir::Predicate& predicate,
                                     const std::string& document) {
  if (op == ir::Op::kExists) return ir::Json(chance(70));
  std::vector<std::string> found;
  std::optional<ir::Json> whole;
  if (predicate.jsonpath) {
    auto path = jsonpath::Path::parse(*predicate.jsonpath);
    auto json = jsonpath::parse_json(document);
    if (path.index() == 0 && json) {
      const auto results = std::get<0>(path).select(*json);
      if (results.size() == 1) whole = results.front();
      for (const auto& result : results) {
        if (result.is_array()) {
          for (const auto& element : result) found.push_back(js::to_string(element));
        } else {
          found.push_back(js::to_string(result));
        }
      }
    }
  } else if (predicate.xpath) {
    auto selector = xpath::Selector::compile(predicate.xpath->selector, predicate.xpath->ns);
    if (selector.index() == 0) {
      try {
        const xpath::Result result = xpath::select(std::get<0>(selector), document);
        if (const auto* text = std::get_if<std::string>(&result)) found.push_back(*text);
        if (const auto* number = std::get_if<double>(&result)) {
          found.push_back(js::to_string(ir::Json(*number)));
        }
        if (const auto* flag = std::get_if<bool>(&result))
          found.push_back(*flag ? "true" : "false");
        if (const auto* texts = std::get_if<std::vector<std::string>>(&result)) found = *texts;
      } catch (const std::exception&) {
        // An unbound prefix: evaluation fails whatever is expected.
      }
    }
  }
  if (found.empty() || chance(15)) return ir::Json(scalar_for(op, vocab::selected_values()));
  if (op == ir::Op::kDeepEquals && whole && chance(50)) return *whole;
  std::string text = pick(found);
  switch (op) {
    case ir::Op::kMatches: {
      std::string pattern = "^";
      for (char c : text) {
        if (std::string_view("\\^$.|?*+()[]{}/").find(c) != std::string_view::npos) pattern += '\\';
        pattern += c;
      }
      return ir::Json(chance(70) ? pattern + "$" : pattern);
    }
    case ir::Op::kContains:
    case ir::Op::kStartsWith:
    case ir::Op::kEndsWith:
      if (text.size() > 1 && chance(50)) {
        const size_t begin = op == ir::Op::kStartsWith ? 0 : below(text.size() - 1);
        const size_t length = 1 + below(text.size() - begin);
        text = op == ir::Op::kEndsWith ? text.substr(text.size() - length)
                                       : text.substr(begin, length);
      }
      return ir::Json(std::move(text));
    default:
      return ir::Json(std::move(text));
  }
}

std::string StubGrammar::field_name(const std::string& name, bool case_sensitive) {
  if (!chance(case_sensitive ? 5 : 20)) return name;
  if (chance(50)) return ascii::upper(name);
  std::string out = name;
  out[0] = ascii::upper(out[0]);
  return out;
}

ir::Json StubGrammar::fields_for(ir::Op op, bool selector) {
  ir::Json fields = ir::Json::object();
  if (selector) {
    // Selectors apply to every named string field; the body is where they mean something.
    if (chance(90)) {
      fields["body"] = op == ir::Op::kExists ? ir::Json(chance(70))
                                             : ir::Json(scalar_for(op, vocab::selected_values()));
    } else {
      fields["query"] =
          ir::Json{{pick(vocab::query_keys()), scalar_for(op, vocab::selected_values())}};
    }
    return fields;
  }
  static const std::vector<std::string> kFields = {"method",  "path", "path", "query", "query",
                                                   "headers", "body", "body", "form"};
  const size_t count = chance(70) ? 1 : chance(85) ? 2 : 3;
  for (size_t i = 0; i < count; ++i) {
    const std::string& field = pick(kFields);
    fields[field] = value_for(op, field);
  }
  return fields;
}

ir::Json StubGrammar::value_for(ir::Op op, const std::string& field) {
  if (op == ir::Op::kExists && (is_scalar_field(field) || chance(30))) return ir::Json(chance(70));
  if (field == "method") return scalar_for(op, vocab::stub_methods());
  if (field == "path") {
    const bool partial =
        op == ir::Op::kContains || op == ir::Op::kStartsWith || op == ir::Op::kEndsWith;
    return scalar_for(op, partial ? vocab::path_fragments() : vocab::stub_paths());
  }
  if (field == "query") return key_values_for(op, vocab::query_keys());
  if (field == "headers") return key_values_for(op, vocab::header_names());
  if (field == "form") return key_values_for(op, vocab::form_keys());
  return body_for(op);
}

ir::Json StubGrammar::key_values_for(ir::Op op, const std::vector<std::string>& keys) {
  ir::Json out = ir::Json::object();
  const size_t count = chance(75) ? 1 : 2;
  for (size_t i = 0; i < count; ++i) {
    const std::string& key = pick(keys);
    if (op == ir::Op::kExists) {
      out[key] = chance(70);
    } else if (chance(15)) {
      // Repeated keys: each expected element must match some value.
      out[key] =
          ir::Json::array({scalar_for(op, vocab::values()), scalar_for(op, vocab::values())});
    } else if (op == ir::Op::kEquals && chance(5)) {
      out[key] = 42;  // numbers compare through String()
    } else {
      out[key] = scalar_for(op, vocab::values());
    }
  }
  return out;
}

ir::Json StubGrammar::body_for(ir::Op op) {
  const size_t kind = below(100);
  if (kind < 40 || op == ir::Op::kMatches) {
    const bool partial =
        op == ir::Op::kContains || op == ir::Op::kStartsWith || op == ir::Op::kEndsWith;
    return scalar_for(op, partial ? vocab::values() : vocab::text_bodies());
  }
  if (kind < 80) {
    // A subset of one of the JSON documents, so that it overlaps what requests carry.
    ir::Json document = ir::Json::parse(pick(vocab::json_bodies()));
    if (document.is_object()) {
      ir::Json subset = ir::Json::object();
      for (const auto& [key, value] : document.items()) {
        if (chance(50)) subset[key] = value;
      }
      if (subset.empty()) subset = document;
      if (op == ir::Op::kExists) {
        for (auto& [key, value] : subset.items()) value = chance(70);
      } else if (chance(20)) {
        subset[subset.begin().key()] = pick(vocab::values());
      }
      return subset;
    }
    if (chance(40)) std::reverse(document.begin(), document.end());
    if (chance(30) && document.size() > 1) document.erase(document.begin());
    return document;
  }
  const std::string& xml = pick(vocab::xml_bodies());
  if (op == ir::Op::kEquals || op == ir::Op::kDeepEquals) return xml;
  return op == ir::Op::kExists ? ir::Json(true) : ir::Json(chance(50) ? "<item>" : "</root>");
}

std::string StubGrammar::scalar_for(ir::Op op, const std::vector<std::string>& words) {
  if (op == ir::Op::kMatches) return pick(vocab::patterns()).first;
  std::string word = pick(words);
  if ((op == ir::Op::kContains || op == ir::Op::kStartsWith || op == ir::Op::kEndsWith) &&
      word.size() > 1 && chance(40)) {
    const size_t begin = below(word.size() - 1);
    word = word.substr(begin, 1 + below(word.size() - begin));
  }
  return word;
}

// ---------------------------------------------------------------------------------------------
// Requests.

Request StubGrammar::base_request() {
  Request out;
  out.method = pick(vocab::request_methods());
  out.path = pick(vocab::request_paths());
  out.request_from = "127.0.0.1:50000";
  out.ip = "127.0.0.1";
  for (size_t i = below(3); i > 0; --i) {
    out.query.emplace_back(pick(vocab::query_keys()), pick(vocab::values()));
  }
  // A repeated key: Mountebank sees an array, and an equals holds if any element does.
  if (!out.query.empty() && chance(20)) {
    out.query.emplace_back(pick(out.query).first, pick(vocab::values()));
  }
  for (size_t i = below(3); i > 0; --i) {
    out.headers.emplace_back(pick(vocab::header_names()), pick(vocab::values()));
  }
  if (chance(30)) out.headers.emplace_back("Host", "localhost:4545");
  if (shape_.body_focus > 0 && chance(shape_.body_focus)) {
    const bool xml = chance(40);
    const bool odd = chance(15);
    out.body = pick(xml ? (odd ? vocab::odd_xml_bodies() : vocab::xml_bodies())
                        : (odd ? vocab::odd_json_bodies() : vocab::json_bodies()));
    if (chance(20))
      out.headers.emplace_back("Content-Type", xml ? "application/xml" : "application/json");
    return out;
  }
  const size_t body = below(100);
  if (body < 15) {
    out.body = pick(vocab::text_bodies());
  } else if (body < 30) {
    out.body = pick(chance(15) ? vocab::odd_json_bodies() : vocab::json_bodies());
  } else if (body < 40) {
    out.body = pick(chance(15) ? vocab::odd_xml_bodies() : vocab::xml_bodies());
  } else if (body < 45) {
    out.form = KeyValues{{pick(vocab::form_keys()), pick(vocab::values())}};
    out.body = urlencode(*out.form);
    out.headers.emplace_back("Content-Type", "application/x-www-form-urlencoded");
  }
  return out;
}

Request StubGrammar::request(const std::vector<ir::Stub>& stubs) {
  Request out = base_request();
  const ir::Stub* target = nullptr;
  if (!stubs.empty() && !chance(8)) {
    target = &pick(stubs);
    for (const auto& predicate : target->predicates) satisfy(predicate, out);
  }
  out.path = percent_encode_non_ascii(out.path);
  if (chance(55)) perturb(out);
  if (chance(10)) perturb(out);
  if (shape_.spaced > 0) {
    const bool aim = target != nullptr && target->space && chance(80);
    out.flow_id = aim ? *target->space : pick(vocab::flow_ids());
  }
  if (shape_.scenario > 0) {
    // The flow's states: most often the one the aimed-at stub requires, else any.
    const bool aim = target != nullptr && target->required_scenario_state && chance(75);
    if (aim) {
      out.headers.emplace_back("X-Scenario",
                               *target->scenario_name + "=" + *target->required_scenario_state);
    }
    if (chance(50)) {
      out.headers.emplace_back(
          "X-Scenario", pick(vocab::scenario_names()) + "=" + pick(vocab::scenario_states()));
    }
  }
  if (out.path.empty() || out.path[0] != '/') out.path.insert(0, "/");
  return out;
}

void StubGrammar::satisfy(const ir::Predicate& predicate, Request& request) {
  switch (predicate.op) {
    case ir::Op::kNot:
      if (!predicate.children.empty()) satisfy_by_search(predicate.children[0], false, request);
      return;
    case ir::Op::kOr:
      if (!predicate.children.empty()) satisfy(pick(predicate.children), request);
      return;
    case ir::Op::kAnd:
      for (const auto& child : predicate.children) satisfy(child, request);
      return;
    case ir::Op::kInject:
    case ir::Op::kScenario:  // request() writes the flow's states
      return;
    default:
      break;
  }
  if (predicate.jsonpath || predicate.xpath) {
    satisfy_by_search(predicate, true, request);
    return;
  }
  const bool fold = !predicate.case_sensitive;
  for (const auto& [key, value] : predicate.fields.items()) {
    const std::string name = fold ? js::lower(key) : key;
    satisfy_field(predicate.op, name, value, fold, request);
  }
}

void StubGrammar::satisfy_field(ir::Op op, const std::string& field, const ir::Json& value,
                                bool fold, Request& request) {
  if (field == "method") {
    if (!value.is_string()) return;
    if (op == ir::Op::kEquals || op == ir::Op::kDeepEquals) {
      request.method = ascii::upper(value.get<std::string>());
      return;
    }
    // Which real method satisfies a pattern or fragment is easiest found by trying them all.
    ir::Predicate single;
    single.op = op;
    single.case_sensitive = !fold;
    single.fields["method"] = value;
    auto prepared = PreparedPredicate::prepare(single);
    if (prepared.index() != 0) return;
    std::vector<std::string> methods = vocab::request_methods();
    methods.push_back(ascii::upper(value.get<std::string>()));
    std::shuffle(methods.begin(), methods.end(), random_);
    for (const auto& method : methods) {
      Request candidate = request;
      candidate.method = method;
      if (holds_prepared(std::get<0>(prepared), candidate)) {
        request.method = method;
        return;
      }
    }
    return;
  }
  if (field == "path") {
    if (!value.is_string()) return;
    request.path = realize(op, value.get<std::string>(), fold);
    return;
  }
  if (field == "body") {
    if (value.is_boolean()) {
      request.body = value.get<bool>() ? "a" : "";
    } else if (value.is_string()) {
      request.body = realize(op, value.get<std::string>(), fold);
    } else if (value.is_object() || value.is_array()) {
      request.body = realize_json(op, value, fold).dump();
    }
    request.form.reset();
    return;
  }
  const bool is_form = field == "form";
  if (field != "query" && field != "headers" && !is_form) return;
  if (!value.is_object()) return;
  KeyValues pairs = is_form            ? request.form.value_or(KeyValues{})
                    : field == "query" ? request.query
                                       : request.headers;
  for (const auto& [key, expected] : value.items()) {
    const std::string name = fold && chance(30) ? vary_case(key) : key;
    erase_key(pairs, key, fold);
    if (expected.is_boolean()) {
      if (expected.get<bool>()) pairs.emplace_back(name, "a");
    } else if (expected.is_array()) {
      for (const auto& element : expected) {
        pairs.emplace_back(name, realize(op, js::to_string(element), fold));
      }
    } else {
      pairs.emplace_back(name, realize(op, js::to_string(expected), fold));
    }
  }
  if (field == "query") {
    request.query = std::move(pairs);
  } else if (field == "headers") {
    request.headers = std::move(pairs);
  } else {
    request.body = urlencode(pairs);
    request.form = pairs.empty() ? std::nullopt : std::optional<KeyValues>(pairs);
    erase_key(request.headers, "content-type", true);
    request.headers.emplace_back("Content-Type", "application/x-www-form-urlencoded");
  }
}

// Tries bodies from the vocabulary (for selectors) or small perturbations (for `not`) until the
// predicate comes out as `want`; leaves the request alone when nothing works.
void StubGrammar::satisfy_by_search(const ir::Predicate& predicate, bool want, Request& request) {
  auto prepared = PreparedPredicate::prepare(predicate);
  if (prepared.index() != 0) return;
  const PreparedPredicate& check = std::get<0>(prepared);
  if (holds_prepared(check, request) == want) return;
  std::vector<Request> candidates;
  if (predicate.jsonpath || predicate.xpath) {
    for (const auto* bodies : {&vocab::json_bodies(), &vocab::xml_bodies(),
                               &vocab::odd_json_bodies(), &vocab::odd_xml_bodies()}) {
      for (const auto& body : *bodies) {
        Request candidate = request;
        candidate.body = body;
        candidate.form.reset();
        candidates.push_back(std::move(candidate));
      }
    }
    std::shuffle(candidates.begin(), candidates.end(), random_);
  }
  for (int i = 0; i < 6 && !want; ++i) {
    Request candidate = request;
    perturb(candidate);
    candidates.push_back(std::move(candidate));
  }
  for (auto& candidate : candidates) {
    if (holds_prepared(check, candidate) == want) {
      request = std::move(candidate);
      return;
    }
  }
}

std::string StubGrammar::realize(ir::Op op, const std::string& expected, bool fold) {
  static const std::vector<std::string> kAffixes = {"", "x", "/a", "1"};
  std::string out = expected;
  switch (op) {
    case ir::Op::kContains:
      out = pick(kAffixes) + expected + pick(kAffixes);
      break;
    case ir::Op::kStartsWith:
      out = expected + pick(kAffixes);
      break;
    case ir::Op::kEndsWith:
      out = pick(kAffixes) + expected;
      break;
    case ir::Op::kMatches:
      for (const auto* patterns : {&vocab::patterns(), &vocab::path_patterns()}) {
        for (const auto& [pattern, example] : *patterns) {
          if (pattern == expected) return fold && chance(30) ? vary_case(example) : example;
        }
      }
      return expected;
    case ir::Op::kExists:
      return expected.empty() ? "" : "a";
    default:
      break;
  }
  return fold && chance(30) ? vary_case(out) : out;
}

ir::Json StubGrammar::realize_json(ir::Op op, const ir::Json& expected, bool fold) {
  if (expected.is_object()) {
    ir::Json out = ir::Json::object();
    for (const auto& [key, value] : expected.items()) {
      if (op == ir::Op::kExists && value.is_boolean()) {
        if (value.get<bool>()) out[key] = "x";
        continue;
      }
      out[key] = realize_json(op, value, fold);
    }
    return out;
  }
  if (expected.is_array()) {
    ir::Json out = ir::Json::array();
    for (const auto& value : expected) out.push_back(realize_json(op, value, fold));
    return out;
  }
  if (expected.is_string()) return realize(op, expected.get<std::string>(), fold);
  return expected;
}

// Another spelling of the same text under JavaScript case folding (ASCII upper case, the
// Unicode-aware lower case, or one letter flipped): a hit when the predicate folds, a narrow
// miss when it is caseSensitive.
std::string StubGrammar::vary_case(std::string text) {
  const size_t how = below(3);
  if (how == 0) return ascii::upper(text);
  if (how == 1) return js::lower(text);
  std::vector<size_t> letters;
  for (size_t i = 0; i < text.size(); ++i) {
    if (std::isalpha(static_cast<unsigned char>(text[i]))) letters.push_back(i);
  }
  if (letters.empty()) return text;
  char& c = text[pick(letters)];
  c = std::islower(static_cast<unsigned char>(c)) ? ascii::upper(c) : ascii::lower(c);
  return text;
}

void StubGrammar::perturb(Request& request) {
  switch (below(13)) {
    case 0:  // the case of the path
      request.path = vary_case(request.path);
      return;
    case 1: {  // one character of the path
      if (request.path.size() > 1) {
        const size_t at = 1 + below(request.path.size() - 1);
        if (chance(50)) {
          request.path.erase(at, 1);
        } else {
          request.path[at] = 'x';
        }
      } else {
        request.path += "a";
      }
      return;
    }
    case 2:  // drop a header
      if (!request.headers.empty()) {
        request.headers.erase(request.headers.begin() +
                              static_cast<std::ptrdiff_t>(below(request.headers.size())));
      }
      return;
    case 3:  // drop a query value
      if (!request.query.empty()) {
        request.query.erase(request.query.begin() +
                            static_cast<std::ptrdiff_t>(below(request.query.size())));
      }
      return;
    case 4: {  // add a query value, often repeating a key already there
      const std::string key = !request.query.empty() && chance(60) ? pick(request.query).first
                                                                   : pick(vocab::query_keys());
      request.query.emplace_back(key, pick(vocab::values()));
      return;
    }
    case 5: {  // add a header, often repeating one (same spelling or another case)
      std::string name = !request.headers.empty() && chance(60) ? pick(request.headers).first
                                                                : pick(vocab::header_names());
      if (chance(40)) name = vary_case(name);
      request.headers.emplace_back(name, pick(vocab::values()));
      return;
    }
    case 6:  // the spelling of a header name
      if (!request.headers.empty()) {
        auto& header = request.headers[below(request.headers.size())];
        header.first = vary_case(header.first);
      }
      return;
    case 7: {  // the wrong method
      std::string method = request.method;
      while (method == request.method) method = pick(vocab::request_methods());
      request.method = method;
      return;
    }
    case 8: {  // reorder the JSON arrays of the body (or change a key's case)
      if (!request.body) return;
      auto json = jsonpath::parse_json(*request.body);
      if (!json) return;
      if (!reverse_arrays(*json) && json->is_object() && !json->empty()) {
        const std::string key = json->begin().key();
        ir::Json value = (*json)[key];
        json->erase(key);
        (*json)[vary_case(key)] = std::move(value);
      }
      request.body = json->dump();
      return;
    }
    case 9:  // the case of the body
      if (request.body) request.body = vary_case(*request.body);
      return;
    case 10:  // the case of a query or header value
      if (!request.query.empty() && chance(50)) {
        auto& pair = request.query[below(request.query.size())];
        pair.second = vary_case(pair.second);
      } else if (!request.headers.empty()) {
        auto& pair = request.headers[below(request.headers.size())];
        pair.second = vary_case(pair.second);
      }
      return;
    case 11:  // one character of the body, or no body at all
      if (request.body && !request.body->empty() && chance(70)) {
        request.body->erase(below(request.body->size()), 1);
      } else {
        request.body = chance(80) ? std::optional<std::string>("") : std::nullopt;
      }
      request.form.reset();
      return;
    default:  // the form
      if (request.form && !request.form->empty()) {
        request.form->pop_back();
        if (request.form->empty()) request.form.reset();
        request.body = request.form ? urlencode(*request.form) : "";
      }
      return;
  }
}

}  // namespace rift::equivalence
