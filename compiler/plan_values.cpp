// plan::request_values and plan::lookup_text: what a request offers the tree's lookups.
//
// request_values must return every value under which a stub that matches the request can be
// filed (plan_facts.cpp states each filing rule). It may return more, which only adds candidates
// whose residual checks then fail; it must never return fewer. Values are folded with
// JavaScript's lower case, as the evaluator folds request values, which equals the ASCII folding
// of the tree's keys wherever a key (printable ASCII) can match.
#include <algorithm>
#include <unordered_map>

#include "compiler/ascii.h"
#include "compiler/json_stream.h"
#include "compiler/jsonpath.h"
#include "compiler/plan.h"
#include "compiler/plan_facts.h"
#include "compiler/predicate_context.h"
#include "compiler/predicate_normalize.h"
#include "compiler/predicate_value.h"

namespace rift::plan {
namespace {

bool is_ascii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return (c & 0x80) == 0; });
}

// Every value of a query parameter or header whose name folds to `key`. A name repeated in one
// spelling is an array to the evaluator, which compares each element; several spellings fold
// to one key there and the last one wins, so taking them all is a superset.
void key_values(const KeyValues& pairs, std::string_view key, std::vector<std::string>& out) {
  for (const auto& [name, value] : pairs) {
    const bool named =
        is_ascii(name) ? ascii::iequals(name, key) : ascii::iequals(js::lower(name), key);
    if (named) out.push_back(js::lower(value));
  }
}

// The transform of a predicate that is not caseSensitive and has no `except`.
const predicates::Transform& folding() {
  static const predicates::Transform transform{true, true, nullptr};
  return transform;
}

// tryJSON of `text`, the plain way with slow paths (RequestContext::slow_paths()).
std::optional<ir::Json> try_json(RequestContext& context, const std::string& text) {
  if (context.slow_paths()) return predicates::try_json_plainly(text, folding());
  return predicates::try_json(text, folding(), context.caches().json_parser);
}

// tryJSON of the lower-cased body: the very cache entry a case-insensitive predicate on `body`
// parses into (predicate_eval.cpp), so the two share one parse per request. With slow paths,
// parsed into `own` instead.
const std::optional<ir::Json>& parsed_body(RequestContext& context, std::optional<ir::Json>& own) {
  static const FieldKey kCacheKey{predicates::normalization_key(folding()), {}, "body"};
  const Request& request = context.request();
  if (!request.body) {
    own.reset();
    return own;
  }
  if (context.slow_paths()) {
    own = try_json(context, folding().apply(*request.body));
    return own;
  }
  auto [parsed, fresh] = context.caches().parsed.try_emplace(kCacheKey);
  if (fresh) parsed = try_json(context, folding().apply(*request.body));
  return parsed;
}

// Selectors are parsed once per thread (the tree's selectors are few and fixed).
const jsonpath::Path* selector_path(std::string_view selector) {
  thread_local std::unordered_map<std::string, std::optional<jsonpath::Path>> cache;
  std::string text(selector);
  auto it = cache.find(text);
  if (it == cache.end()) {
    if (cache.size() >= 1024) cache.clear();
    auto parsed = jsonpath::Path::parse(text);
    std::optional<jsonpath::Path> path;
    if (parsed.index() == 0) path = std::get<0>(std::move(parsed));
    it = cache.emplace(std::move(text), std::move(path)).first;
  }
  return it->second ? &*it->second : nullptr;
}

// `equals` compares a non-null value as String(value); null never equals a string.
void add_compared(const ir::Json& value, std::vector<std::string>& out) {
  if (!value.is_null()) out.push_back(js::lower(js::to_string(value)));
}

// equals {body: "v"} with a selector: one result is compared as is (an array element by
// element), several results each as a whole.
void selected_values(const ir::Json& document, const jsonpath::Path& path,
                     std::vector<std::string>& out) {
  const std::vector<ir::Json> results = path.select(document);
  if (results.size() == 1 && results.front().is_array()) {
    for (const auto& element : results.front()) add_compared(element, out);
    return;
  }
  for (const auto& result : results) add_compared(result, out);
}

// equals {body: {name: v}}: the object's member (each element when it is an array); for an
// array, the same of every truthy element, a string element parsed as JSON first (Mountebank
// lets any element of a JSON array body match the whole expected object).
void member_values(const ir::Json& node, const std::string& name, RequestContext& context,
                   std::vector<std::string>& out) {
  if (node.is_object()) {
    auto member = node.find(name);
    if (member == node.end()) return;
    if (!member->is_array()) return add_compared(*member, out);
    for (const auto& element : *member) add_compared(element, out);
    return;
  }
  if (!node.is_array()) return;
  for (const auto& element : node) {
    if (!js::truthy(&element)) continue;
    if (!element.is_string()) {
      member_values(element, name, context, out);
      continue;
    }
    auto parsed = try_json(context, element.get_ref<const std::string&>());
    if (parsed) member_values(*parsed, name, context, out);
  }
}

// `$.name` on an object body: the one member read off simdjson's tape, with no tree. The text is
// folded first, exactly as parsed_body folds it (folding can make JSON of what was not: TRUE).
// False when the tree path must answer (an array or scalar body, or a text simdjson refuses).
bool member_values_streamed(RequestContext& context, std::string_view name,
                            std::vector<std::string>& out) {
  const std::string folded = folding().apply(*context.request().body);
  const json_stream::Members read =
      json_stream::members(folded, {folding().apply(std::string(name))}, folding());
  if (read.outcome == json_stream::Outcome::kNotJson) return true;  // the selection is empty
  if (read.outcome != json_stream::Outcome::kRead) return false;
  if (const std::optional<ir::Json>& member = read.values.front()) {
    if (!member->is_array()) {
      add_compared(*member, out);
    } else {
      for (const auto& element : *member) add_compared(element, out);
    }
  }
  return true;
}

void body_values(RequestContext& context, std::string_view selector,
                 std::vector<std::string>& out) {
  if (!context.request().body) return;
  const bool member = selector.starts_with("$.") && plain_identifier(selector.substr(2));
  if (member && !context.slow_paths() && member_values_streamed(context, selector.substr(2), out)) {
    return;
  }
  std::optional<ir::Json> own;
  const std::optional<ir::Json>& body = parsed_body(context, own);
  if (!body || body->is_string()) return;  // not JSON, or a JSON string: the selection is empty
  if (const jsonpath::Path* path = selector_path(selector)) selected_values(*body, *path, out);
  if (member) member_values(*body, std::string(selector.substr(2)), context, out);
}

}  // namespace

const std::vector<std::string>& request_values(RequestContext& context, Field field,
                                               std::string_view key) {
  auto [values, fresh] = context.caches().values.try_emplace(ValuesKeyView{field, key});
  if (!fresh) return values;

  const Request& request = context.request();
  switch (field) {
    case Field::kQuery:
      key_values(request.query, key, values);
      break;
    case Field::kHeader:
      key_values(request.headers, key, values);
      break;
    case Field::kBodySelector:
      body_values(context, key, values);
      break;
    case Field::kScenario:
      if (auto state = context.scenario_state(key)) values.push_back(ascii::lower(*state));
      break;
  }
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

std::string_view lookup_text(std::string_view text, std::string& scratch) {
  if (is_ascii(text)) return text;
  scratch = js::lower(text);
  return scratch;
}

}  // namespace rift::plan
