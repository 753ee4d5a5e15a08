// Mountebank's models/predicates.js, restated over a prepared predicate
// (docs/mountebank-semantics.md §4.2-4.9).
#include "compiler/predicate_eval.h"

#include <algorithm>

#include "compiler/ascii.h"
#include "compiler/json_stream.h"
#include "compiler/jsonpath.h"
#include "compiler/predicate_context.h"
#include "compiler/predicate_json.h"
#include "compiler/predicate_normalize.h"
#include "compiler/predicate_value.h"
#include "compiler/regex.h"
#include "compiler/xpath.h"

namespace rift {

using predicates::Expected;
using predicates::Transform;

namespace {

// A thread's requests follow one another, so each context takes over the Caches the previous one
// gave back (their keys, hash nodes, parser buffers) instead of allocating its own.
thread_local std::unique_ptr<RequestContext::Caches> spare_caches;

}  // namespace

RequestContext::RequestContext(const Request& request) : request_(request) {}

RequestContext::~RequestContext() {
  if (!caches_ || spare_caches) return;
  caches_->next_request();
  spare_caches = std::move(caches_);
}

const ir::Json& RequestContext::json() {
  if (!json_) json_ = predicate_json(request_);
  return *json_;
}

RequestContext::Caches& RequestContext::caches() {
  if (!caches_) caches_ = spare_caches ? std::move(spare_caches) : std::make_unique<Caches>();
  return *caches_;
}

namespace {

// The member of the request's JSON form (to_json) a top-level field names, resolved once at
// prepare time so that evaluation reads the field straight from the Request instead of
// building the whole JSON form first.
enum class RequestMember {
  kNone,
  kRequestFrom,
  kMethod,
  kPath,
  kQuery,
  kHeaders,
  kBody,
  kIp,
  kForm,
  kData,  // a tcp request's
};

// to_json's member names, in its order.
constexpr std::pair<const char*, RequestMember> kRequestMembers[] = {
    {"requestFrom", RequestMember::kRequestFrom},
    {"method", RequestMember::kMethod},
    {"path", RequestMember::kPath},
    {"query", RequestMember::kQuery},
    {"headers", RequestMember::kHeaders},
    {"body", RequestMember::kBody},
    {"ip", RequestMember::kIp},
    {"form", RequestMember::kForm},
    {"data", RequestMember::kData},
};

// The member whose name, as `transform` names keys, is `name` (the last such, as the evaluator's
// scan of the JSON form finds it).
RequestMember resolve_member(const Transform& transform, const std::string& name) {
  RequestMember found = RequestMember::kNone;
  for (const auto& [member_name, member] : kRequestMembers) {
    if (transform.key(member_name) == name) found = member;
  }
  return found;
}

// Whether `member` is part of the request's model: a tcp request has requestFrom, ip and data
// only; an http one everything else.
bool in_model(const Request& request, RequestMember member) {
  const bool tcp = request.protocol == Protocol::kTcp;
  switch (member) {
    case RequestMember::kRequestFrom:
    case RequestMember::kIp:
      return true;
    case RequestMember::kData:
      return tcp;
    default:
      return !tcp;
  }
}

// What predicate_json(request)[member] holds; nullopt when it leaves the member out.
std::optional<ir::Json> raw_member(const Request& request, RequestMember member) {
  if (!in_model(request, member)) return std::nullopt;
  switch (member) {
    case RequestMember::kData:
      return ir::Json(request.path);
    case RequestMember::kRequestFrom:
      return ir::Json(request.request_from);
    case RequestMember::kMethod:
      return ir::Json(request.method);
    case RequestMember::kPath:
      return ir::Json(request.path);
    case RequestMember::kQuery:
      return group_key_values(request.query);
    case RequestMember::kHeaders:
      return group_key_values(request.headers);
    case RequestMember::kBody:
      if (request.body) return ir::Json(*request.body);
      return std::nullopt;
    case RequestMember::kIp:
      return ir::Json(request.ip);
    case RequestMember::kForm:
      if (request.form) return group_key_values(*request.form);
      return std::nullopt;
    case RequestMember::kNone:
      return std::nullopt;
  }
  return std::nullopt;
}

bool scalar(const Expected& expected) {
  return !expected.is_object();
}

// See Field::plain.
bool plain_shape(RequestMember member, const Expected& expected) {
  switch (member) {
    case RequestMember::kQuery:
    case RequestMember::kHeaders:
    case RequestMember::kForm:
      return expected.kind == Expected::Kind::kObject &&
             std::all_of(expected.members.begin(), expected.members.end(),
                         [](const auto& member) { return scalar(member.second); });
    default:
      return scalar(expected);
  }
}

bool is_ascii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return (c & 0x80) == 0; });
}

// One top-level expected field (`path`, `query`, `body` ...), with its cache keys.
struct Field {
  std::string name;                             // folded unless caseSensitive
  RequestMember member = RequestMember::kNone;  // the request member `name` reads
  // Evaluated straight from the Request's text (Impl::plain_field_holds): no selector, and
  // either a scalar expected of a text member, or an object of scalars for query, headers or
  // form. Such fields never parse JSON, so the general path's caches buy nothing.
  bool plain = false;
  Expected expected;
  std::vector<std::string> member_keys;  // an expected object's keys, in order
  // Its per-request cache keys: normalization + selection + name (the field's value; in
  // `parsed`, tryJSON of a selection's result), and normalization + name (the field's text
  // parsed as JSON or XML, shared with every predicate that normalizes alike).
  FieldKey field_key;
  FieldKey text_key;
  // deepEquals only: canonical form of the expected value, and whether it is an object/array.
  std::string canonical;
  bool expected_is_object = false;
};

}  // namespace

struct PreparedPredicate::Impl {
  ir::Predicate source;
  ir::Op op = ir::Op::kEquals;
  Transform request_transform;  // request side (tryJSON uses the same)
  std::optional<jsonpath::Path> jsonpath;
  bool has_jsonpath = false;  // set even when the selector does not parse (always missing)
  std::shared_ptr<const xpath::Selector> xpath;
  bool force_strings = false;
  std::vector<Field> fields;
  std::vector<PreparedPredicate> children;
  std::string scenario;           // kScenario: the scenario's name
  std::string scenario_required;  // kScenario: the state it must be in

  bool evaluate(RequestContext& context) const;

  // Field operators.
  bool evaluate_fields(RequestContext& context) const;
  bool plain_field_holds(const Request& request, const Field& field) const;
  std::optional<bool> members_hold_streaming(RequestContext& context, const Field& field,
                                             const std::string& text) const;
  bool plain_members_hold(const KeyValues& pairs, const Expected& expected) const;
  bool names(std::string_view request_name, const std::string& key) const;
  bool evaluate_deep_equals(RequestContext& context) const;
  // Each returns a cache entry, or `own` filled for this predicate alone (slow paths, or a text
  // without a cache key).
  const std::optional<ir::Json>& field_value(RequestContext& context, const Field& field,
                                             std::optional<ir::Json>& own) const;
  const ir::Json* generic_member(const ir::Json& request, const std::string& name) const;
  std::optional<ir::Json> normalize_request_value(RequestContext& context, const ir::Json& value,
                                                  const FieldKey* text_key) const;
  std::optional<ir::Json> select(RequestContext& context, const std::string& text,
                                 const FieldKey* text_key) const;
  std::optional<std::vector<ir::Json>> select_streaming(RequestContext::Caches& caches,
                                                        const std::string& text,
                                                        const FieldKey* text_key) const;
  xpath::Result select_xml(RequestContext& context, const std::string& text,
                           const FieldKey* text_key) const;
  const std::optional<ir::Json>& parsed_text(RequestContext& context, const std::string& text,
                                             const FieldKey* key,
                                             std::optional<ir::Json>& own) const;
  const std::optional<ir::Json>& parsed_field(RequestContext& context, const Field& field,
                                              const std::string& text,
                                              std::optional<ir::Json>& own) const;

  // match(E, A) and test(e, a) of docs/mountebank-semantics.md §4.3.
  bool satisfied(RequestContext& context, const Expected& expected, const ir::Json* actual) const;
  bool members_hold(RequestContext& context, const Expected& expected,
                    const ir::Json& actual) const;
  bool member_holds(RequestContext& context, const Expected& expected, const ir::Json* actual,
                    const Expected& whole, const ir::Json& container) const;
  bool test(RequestContext& context, const Expected& expected, const ir::Json* actual) const;
  // Array rules (docs/mountebank-semantics.md §4.3): some element of `actual` passes `expected`;
  // every member of an expected array is passed by some element.
  bool some_element_passes(RequestContext& context, const Expected& expected,
                           const ir::Json& actual) const;
  bool every_member_found(RequestContext& context, const Expected& expected,
                          const ir::Json& actual) const;
  bool apply_operator(const Expected& expected, const ir::Json& actual) const;
  bool apply_to_text(const Expected& expected, std::string_view actual) const;
};

namespace {

MbError bad_regex(const ir::Predicate& predicate, const std::string& message) {
  return bad_data(message, predicate_to_json(predicate));
}

// Text that is not well-formed XML is searched as an empty document, as xmldom gives one.
std::shared_ptr<const xpath::Document> parse_document(const std::string& text) {
  auto parsed = xpath::Document::parse(text);
  return std::make_shared<const xpath::Document>(parsed ? std::move(*parsed)
                                                        : xpath::Document::empty());
}

}  // namespace

PreparedPredicate::PreparedPredicate(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PreparedPredicate::PreparedPredicate(PreparedPredicate&&) noexcept = default;
PreparedPredicate& PreparedPredicate::operator=(PreparedPredicate&&) noexcept = default;
PreparedPredicate::~PreparedPredicate() = default;

const ir::Predicate& PreparedPredicate::source() const {
  return impl_->source;
}

std::variant<PreparedPredicate, MbError> PreparedPredicate::prepare(
    const ir::Predicate& predicate) {
  auto impl = std::make_unique<Impl>();
  impl->source = predicate;
  impl->op = predicate.op;

  switch (predicate.op) {
    case ir::Op::kNot:
    case ir::Op::kOr:
    case ir::Op::kAnd:
      for (const auto& child : predicate.children) {
        auto prepared = prepare(child);
        if (prepared.index() == 1) return std::get<1>(std::move(prepared));
        impl->children.push_back(std::get<0>(std::move(prepared)));
      }
      return PreparedPredicate(std::move(impl));
    case ir::Op::kInject:
      return PreparedPredicate(std::move(impl));
    case ir::Op::kScenario:
      impl->scenario = predicate.fields.value("scenarioName", "");
      impl->scenario_required = predicate.fields.value("requiredScenarioState", "");
      return PreparedPredicate(std::move(impl));
    default:
      break;
  }

  const bool case_sensitive = predicate.case_sensitive;
  const bool is_matches = predicate.op == ir::Op::kMatches;

  // `matches` evaluates with caseSensitive forced on (values never fold, except without `i`)
  // while keys still fold per the user's setting (models/predicates.js `matches`).
  Transform request;
  request.lower_keys = !case_sensitive;
  request.lower_values = !case_sensitive && !is_matches;
  Transform expected_side = request;
  if (!predicate.except.empty()) {
    auto compiled = Regex::compile(predicate.except, !case_sensitive && !is_matches);
    if (compiled.index() == 1) return bad_regex(predicate, std::get<1>(compiled));
    request.except = std::make_shared<const Regex>(std::get<0>(std::move(compiled)));
    if (!is_matches) expected_side.except = request.except;
  }
  impl->request_transform = request;

  // The cache keys' common part: how this predicate normalizes and selects.
  FieldKey profile;
  profile.normalization = predicates::normalization_key(request);
  if (predicate.jsonpath) {
    impl->has_jsonpath = true;
    std::string selector = *predicate.jsonpath;
    if (request.lower_keys) js::lower_in_place(selector);
    auto parsed = jsonpath::Path::parse(selector);
    if (parsed.index() == 0) impl->jsonpath = std::get<0>(std::move(parsed));
    profile.selection.kind = SelectionKey::Kind::kJsonPath;
    profile.selection.selector = std::move(selector);
  } else if (predicate.xpath) {
    std::string selector = predicate.xpath->selector;
    std::map<std::string, std::string> ns = predicate.xpath->ns;
    if (request.lower_values) {
      js::lower_in_place(selector);
      for (auto& [prefix, uri] : ns) js::lower_in_place(uri);
    }
    auto compiled = xpath::Selector::compile(selector, ns);
    if (compiled.index() == 1) {
      return bad_data("malformed xpath predicate selector", ir::Json(selector));
    }
    impl->xpath = std::make_shared<const xpath::Selector>(std::get<0>(std::move(compiled)));
    profile.selection.kind = SelectionKey::Kind::kXPath;
    profile.selection.selector = std::move(selector);
    profile.selection.ns.assign(ns.begin(), ns.end());
  }
  impl->force_strings = predicate.op == ir::Op::kDeepEquals;
  profile.selection.force_strings = impl->force_strings;

  const ir::Json fields =
      impl->force_strings ? predicates::force_strings(predicate.fields) : predicate.fields;
  predicates::ExpectedOptions options;
  options.transform = expected_side;
  if (is_matches) options.regex_ignore_case = !case_sensitive;
  auto built =
      predicates::build_expected(fields.is_object() ? fields : ir::Json::object(), options);
  if (built.index() == 1) return bad_regex(predicate, std::get<1>(built));
  const Expected& root = std::get<0>(built);

  for (const auto& [name, expected] : root.members) {
    Field field;
    field.name = name;
    field.member = resolve_member(request, name);
    field.expected = expected;
    if (expected.kind == Expected::Kind::kObject) {
      for (const auto& member : expected.members) field.member_keys.push_back(member.first);
    }
    field.field_key = profile;
    field.field_key.field = name;
    field.text_key.normalization = profile.normalization;
    field.text_key.field = name;
    if (impl->force_strings) {
      // Expected side of deepEquals: already forced to strings and folded; canonical sorts
      // arrays at every level. Re-serialize from the normalized tree.
      const ir::Json normalized = predicates::transform_json(fields.at([&] {
        // Find the user's key that folded to `name` (the last one wins, like JavaScript).
        std::string found;
        for (auto it = fields.begin(); it != fields.end(); ++it) {
          if (expected_side.key(it.key()) == name) found = it.key();
        }
        return found;
      }()),
                                                             expected_side);
      field.canonical = predicates::canonical(&normalized, true);
      field.expected_is_object = js::is_object(normalized);
    }
    field.plain = plain_shape(field.member, field.expected) && !impl->has_jsonpath &&
                  !impl->xpath && !impl->force_strings;
    impl->fields.push_back(std::move(field));
  }
  return PreparedPredicate(std::move(impl));
}

bool PreparedPredicate::evaluate(RequestContext& context) const {
  return impl_->evaluate(context);
}

bool PreparedPredicate::Impl::evaluate(RequestContext& context) const {
  switch (op) {
    case ir::Op::kNot:
      return children.empty() || !children.front().evaluate(context);
    case ir::Op::kOr:
      for (const auto& child : children) {
        if (child.evaluate(context)) return true;
      }
      return false;
    case ir::Op::kAnd:
      for (const auto& child : children) {
        if (!child.evaluate(context)) return false;
      }
      return true;
    case ir::Op::kInject:
      if (context.caches().dry_run) return true;
      if (context.injector() == nullptr) {
        throw EvalError(MbError{"invalid injection",
                                "invalid predicate injection: no JavaScript engine here",
                                predicate_to_json(source)});
      }
      // Scripts see the request as the journal does (a binary tcp request's data in base64).
      if (context.request().protocol == Protocol::kTcp) {
        return context.injector()->holds(source.inject, to_json(context.request()));
      }
      return context.injector()->holds(source.inject, context.json());
    case ir::Op::kScenario: {
      const auto state = context.scenario_state(scenario);
      return state && *state == scenario_required;
    }
    case ir::Op::kDeepEquals:
      return evaluate_deep_equals(context);
    default:
      return evaluate_fields(context);
  }
}

// ---------------------------------------------------------------------------------------------
// The request side: each named top-level field, folded, stripped and selected, cached.

const std::optional<ir::Json>& PreparedPredicate::Impl::field_value(
    RequestContext& context, const Field& field, std::optional<ir::Json>& own) const {
  if (context.slow_paths()) {
    own.reset();
    if (const ir::Json* raw = generic_member(context.json(), field.name)) {
      own = normalize_request_value(context, *raw, nullptr);
    }
    return own;
  }
  auto& caches = context.caches();
  auto [slot, fresh] = caches.fields.try_emplace(field.field_key);
  if (!fresh) return slot;
  const std::optional<ir::Json> raw = raw_member(context.request(), field.member);
  // References into the cache survive the lookups that selection adds.
  if (raw) slot = normalize_request_value(context, *raw, &field.text_key);
  return slot;
}

// Slow paths: the member of the request's JSON form whose key, folded as this predicate folds
// keys, is `name`; the last such, as normalizing the whole form and then looking `name` up
// finds it (what resolve_member and raw_member compute at prepare time).
const ir::Json* PreparedPredicate::Impl::generic_member(const ir::Json& request,
                                                        const std::string& name) const {
  const ir::Json* found = nullptr;
  for (auto it = request.begin(); it != request.end(); ++it) {
    if (request_transform.key(it.key()) == name) found = &it.value();
  }
  return found;
}

// `text_key` names the cache entries of a top-level field's text; the members of an object or
// array (repeated query keys, header values) are selected without a cache.
std::optional<ir::Json> PreparedPredicate::Impl::normalize_request_value(
    RequestContext& context, const ir::Json& value, const FieldKey* text_key) const {
  if (value.is_string()) {
    std::string text = request_transform.apply(value.get<std::string>());
    if (has_jsonpath || xpath) return select(context, text, text_key);
    return ir::Json(std::move(text));
  }
  if (value.is_object()) {
    ir::Json out = ir::Json::object();
    for (auto it = value.begin(); it != value.end(); ++it) {
      auto child = normalize_request_value(context, it.value(), nullptr);
      if (child) out[request_transform.key(it.key())] = std::move(*child);
    }
    return out;
  }
  if (value.is_array()) {
    ir::Json out = ir::Json::array();
    for (const auto& element : value) {
      auto child = normalize_request_value(context, element, nullptr);
      out.push_back(child ? std::move(*child) : ir::Json());
    }
    return out;
  }
  return value;
}

// tryJSON(text): the request's cache entry under `key`, shared by every predicate that asks for
// it; computed into `own` without a key, and always with slow paths (with nlohmann's parser).
const std::optional<ir::Json>& PreparedPredicate::Impl::parsed_text(
    RequestContext& context, const std::string& text, const FieldKey* key,
    std::optional<ir::Json>& own) const {
  if (context.slow_paths()) {
    own = predicates::try_json_plainly(text, request_transform);
    return own;
  }
  auto& caches = context.caches();
  if (key == nullptr) {
    own = predicates::try_json(text, request_transform, caches.json_parser);
    return own;
  }
  auto [parsed, fresh] = caches.parsed.try_emplace(*key);
  if (fresh) parsed = predicates::try_json(text, request_transform, caches.json_parser);
  return parsed;
}

// Mountebank's `select`: one result as is, several as an array, none as missing.
std::optional<ir::Json> PreparedPredicate::Impl::select(RequestContext& context,
                                                        const std::string& text,
                                                        const FieldKey* text_key) const {
  if (has_jsonpath) {
    if (!jsonpath) return std::nullopt;
    std::optional<std::vector<ir::Json>> results;
    if (!context.slow_paths()) results = select_streaming(context.caches(), text, text_key);
    if (!results) {
      std::optional<ir::Json> own;
      const std::optional<ir::Json>& parsed = parsed_text(context, text, text_key, own);
      if (!parsed || parsed->is_string()) return std::nullopt;
      results = force_strings ? jsonpath->select(predicates::force_strings(*parsed))
                              : jsonpath->select(*parsed);
    }
    if (results->empty()) return std::nullopt;
    if (results->size() == 1) return std::move(results->front());
    ir::Json out = ir::Json::array();
    for (auto& result : *results) out.push_back(std::move(result));
    return out;
  }
  xpath::Result result = select_xml(context, text, text_key);
  if (std::holds_alternative<double>(result)) return ir::Json(std::get<double>(result));
  if (std::holds_alternative<bool>(result)) return ir::Json(std::get<bool>(result));
  if (std::holds_alternative<std::string>(result)) return ir::Json(std::get<std::string>(result));
  if (auto* values = std::get_if<std::vector<std::string>>(&result)) {
    if (values->size() == 1) return ir::Json(std::move(values->front()));
    ir::Json out = ir::Json::array();
    for (auto& value : *values) out.push_back(std::move(value));
    return out;
  }
  return std::nullopt;
}

// The xpath's selection on `text`: one SAX pass for the simple forms unless another predicate
// already parsed the document, else libxml2's DOM (cached under `text_key`). Slow paths parse a
// document of their own every time. Empty text selects nothing.
xpath::Result PreparedPredicate::Impl::select_xml(RequestContext& context, const std::string& text,
                                                  const FieldKey* text_key) const {
  if (text.empty()) return std::monostate{};
  auto& caches = context.caches();
  const bool cached = text_key != nullptr && !context.slow_paths();
  if (!context.slow_paths() && !(cached && caches.documents.contains(*text_key))) {
    if (auto streamed = xpath->select_streaming(text)) return std::move(*streamed);
  }
  std::shared_ptr<const xpath::Document> own;
  const xpath::Document* document = nullptr;
  if (cached) {
    auto [entry, fresh] = caches.documents.try_emplace(*text_key);
    if (fresh) entry = parse_document(text);
    document = entry.get();
  } else {
    own = parse_document(text);
    document = own.get();
  }
  try {
    return xpath->select(*document);
  } catch (const std::exception&) {
    throw EvalError(bad_data("malformed xpath predicate selector", ir::Json(xpath->source())));
  }
}

// The jsonpath's results read through json_stream::walk: its leading names are followed on the
// simdjson tape and only the node they reach becomes a tree, on which the remaining steps run.
// nullopt when the tree path must answer: no leading names, the tree is already parsed for this
// request (another predicate needed it), or simdjson cannot read the text exactly.
std::optional<std::vector<ir::Json>> PreparedPredicate::Impl::select_streaming(
    RequestContext::Caches& caches, const std::string& text, const FieldKey* text_key) const {
  const auto& names = jsonpath->leading_names();
  if (names.empty() || (text_key != nullptr && caches.parsed.contains(*text_key))) {
    return std::nullopt;
  }
  json_stream::Walk walk = json_stream::walk(text, names, request_transform);
  switch (walk.outcome) {
    case json_stream::Outcome::kUnsupported:
      return std::nullopt;
    case json_stream::Outcome::kNotJson:
      return std::vector<ir::Json>();
    case json_stream::Outcome::kRead:
      break;
  }
  if (walk.root_is_string || !walk.node) return std::vector<ir::Json>();
  // Past the work limit, the selection is empty, as select() makes it on the tree path.
  auto selected = force_strings
                      ? jsonpath->select_from(predicates::force_strings(*walk.node), walk.consumed)
                      : jsonpath->select_from(*walk.node, walk.consumed);
  return std::move(selected).value_or(std::vector<ir::Json>());
}

// tryJSON of the field's value `text`. A selector's result is not the field's text; its entry
// is keyed by the selection too. Without one, the entry is the same tryJSON a jsonpath
// predicate makes: shared.
const std::optional<ir::Json>& PreparedPredicate::Impl::parsed_field(
    RequestContext& context, const Field& field, const std::string& text,
    std::optional<ir::Json>& own) const {
  return parsed_text(context, text, (has_jsonpath || xpath) ? &field.field_key : &field.text_key,
                     own);
}

// ---------------------------------------------------------------------------------------------
// equals, contains, startsWith, endsWith, exists, matches (docs/mountebank-semantics.md §4.3).

bool PreparedPredicate::Impl::evaluate_fields(RequestContext& context) const {
  for (const auto& field : fields) {
    // A member outside the request's model (a tcp request's query, an http request's data)
    // reads as missing, which only the generic route below knows how to compare.
    if (field.plain && !context.slow_paths() && in_model(context.request(), field.member)) {
      if (!plain_field_holds(context.request(), field)) return false;
      continue;
    }
    std::optional<ir::Json> own_value;
    const std::optional<ir::Json>& value = field_value(context, field, own_value);
    const ir::Json* actual = value ? &*value : nullptr;
    const Expected& expected = field.expected;
    bool holds = false;
    if (actual != nullptr && actual->is_array()) {
      if (expected.kind == Expected::Kind::kArray) {
        holds = every_member_found(context, expected, *actual);
      } else {
        holds = (op == ir::Op::kExists && expected.truthy) ||
                some_element_passes(context, expected, *actual);
      }
    } else if (expected.is_object()) {
      if (!js::truthy(actual)) {
        holds = false;
      } else if (actual->is_string()) {
        const std::string& text = actual->get_ref<const std::string&>();
        if (auto streamed = members_hold_streaming(context, field, text)) {
          holds = *streamed;
        } else {
          // The per-request cache serves the parsed body to every predicate that needs it.
          std::optional<ir::Json> own_parsed;
          const auto& parsed = parsed_field(context, field, text, own_parsed);
          holds = members_hold(context, expected, parsed ? *parsed : *actual);
        }
      } else {
        holds = members_hold(context, expected, *actual);
      }
    } else {
      holds = test(context, expected, actual);
    }
    if (!holds) return false;
  }
  return true;
}

// members_hold over tryJSON(text) for an expected object, reading only the members it names
// from the simdjson tape (json_stream::members) instead of the whole tree. The container passed
// on is an empty object: the "array of objects" rule of member_holds applies to array
// documents, which json_stream leaves to the tree path. nullopt: the tree path must answer (a
// selector, an array document, text that is not JSON or that simdjson cannot read exactly, or
// a tree some other predicate already parsed for this request), and always with slow paths.
std::optional<bool> PreparedPredicate::Impl::members_hold_streaming(RequestContext& context,
                                                                    const Field& field,
                                                                    const std::string& text) const {
  if (context.slow_paths()) return std::nullopt;
  if (has_jsonpath || xpath || field.expected.kind != Expected::Kind::kObject) return std::nullopt;
  if (context.caches().parsed.contains(field.text_key)) return std::nullopt;
  json_stream::Members read = json_stream::members(text, field.member_keys, request_transform);
  if (read.outcome != json_stream::Outcome::kRead) return std::nullopt;
  static const ir::Json kNoContainer = ir::Json::object();
  for (std::size_t i = 0; i < field.expected.members.size(); ++i) {
    const auto& value = read.values[i];
    if (!member_holds(context, field.expected.members[i].second, value ? &*value : nullptr,
                      field.expected, kNoContainer)) {
      return false;
    }
  }
  return true;
}

// What evaluate_fields concludes for a plain field of the request's model, reading the Request
// as predicate_json and normalize_request_value would present it: a text member is the transformed
// text (missing counts as ""); query, headers and form are objects whose members are compared one
// by one.
bool PreparedPredicate::Impl::plain_field_holds(const Request& request, const Field& field) const {
  const Expected& expected = field.expected;
  switch (field.member) {
    case RequestMember::kData:
      return apply_to_text(expected, request_transform.apply(request.path));
    case RequestMember::kQuery:
      return plain_members_hold(request.query, expected);
    case RequestMember::kHeaders:
      return plain_members_hold(request.headers, expected);
    case RequestMember::kForm:
      return request.form && plain_members_hold(*request.form, expected);
    case RequestMember::kRequestFrom:
      return apply_to_text(expected, request_transform.apply(request.request_from));
    case RequestMember::kMethod:
      return apply_to_text(expected, request_transform.apply(request.method));
    case RequestMember::kPath:
      return apply_to_text(expected, request_transform.apply(request.path));
    case RequestMember::kIp:
      return apply_to_text(expected, request_transform.apply(request.ip));
    case RequestMember::kBody:
      if (!request.body) return apply_to_text(expected, "");
      return apply_to_text(expected, request_transform.apply(*request.body));
    case RequestMember::kNone:
      return apply_to_text(expected, "");
  }
  return false;
}

// Whether a request key names the normalized member `key` (folded unless caseSensitive).
bool PreparedPredicate::Impl::names(std::string_view request_name, const std::string& key) const {
  if (!request_transform.lower_keys) return request_name == key;
  if (is_ascii(request_name)) return ascii::iequals(request_name, key);
  return request_transform.key(std::string(request_name)) == key;
}

// members_hold over group_key_values(pairs) after normalization: a name repeated in one
// spelling is an array of its values; when several spellings name one member, the spelling
// that appeared last (by first appearance, as the ordered object keeps them) wins.
bool PreparedPredicate::Impl::plain_members_hold(const KeyValues& pairs,
                                                 const Expected& expected) const {
  for (const auto& [key, child] : expected.members) {
    const std::string* spelling = nullptr;
    for (size_t i = 0; i < pairs.size(); ++i) {
      const std::string& name = pairs[i].first;
      if (spelling != nullptr && name == *spelling) continue;
      if (!names(name, key)) continue;
      const bool first_appearance =
          std::none_of(pairs.begin(), pairs.begin() + static_cast<std::ptrdiff_t>(i),
                       [&](const auto& earlier) { return earlier.first == name; });
      if (first_appearance) spelling = &name;
    }
    size_t count = 0;
    const std::string* single = nullptr;
    if (spelling != nullptr) {
      for (const auto& [name, value] : pairs) {
        if (name != *spelling) continue;
        ++count;
        single = &value;
      }
    }
    bool holds = false;
    if (count == 0) {
      holds = apply_to_text(child, "");
    } else if (count == 1) {
      holds = apply_to_text(child, request_transform.apply(*single));
    } else if (op == ir::Op::kExists && child.truthy) {
      holds = true;
    } else {
      for (const auto& [name, value] : pairs) {
        if (name == *spelling && apply_to_text(child, request_transform.apply(value))) {
          holds = true;
          break;
        }
      }
    }
    if (!holds) return false;
  }
  return true;
}

bool PreparedPredicate::Impl::satisfied(RequestContext& context, const Expected& expected,
                                        const ir::Json* actual) const {
  if (!js::truthy(actual)) return false;
  if (actual->is_string()) {
    const std::string& text = actual->get_ref<const std::string&>();
    auto parsed = context.slow_paths()
                      ? predicates::try_json_plainly(text, request_transform)
                      : predicates::try_json(text, request_transform, context.caches().json_parser);
    if (parsed) return members_hold(context, expected, *parsed);
  }
  return members_hold(context, expected, *actual);
}

bool PreparedPredicate::Impl::members_hold(RequestContext& context, const Expected& expected,
                                           const ir::Json& actual) const {
  for (const auto& [key, child] : expected.members) {
    ir::Json scratch;
    const ir::Json* value = js::property(actual, key, scratch);
    if (!member_holds(context, child, value, expected, actual)) return false;
  }
  return true;
}

bool PreparedPredicate::Impl::some_element_passes(RequestContext& context, const Expected& expected,
                                                  const ir::Json& actual) const {
  for (const auto& candidate : actual) {
    if (test(context, expected, &candidate)) return true;
  }
  return false;
}

bool PreparedPredicate::Impl::every_member_found(RequestContext& context, const Expected& expected,
                                                 const ir::Json& actual) const {
  for (const auto& [index, element] : expected.members) {
    if (!some_element_passes(context, element, actual)) return false;
  }
  return true;
}

bool PreparedPredicate::Impl::member_holds(RequestContext& context, const Expected& expected,
                                           const ir::Json* actual, const Expected& whole,
                                           const ir::Json& container) const {
  const bool expected_array = expected.kind == Expected::Kind::kArray;
  if (actual != nullptr && actual->is_array()) {
    if (expected_array) return every_member_found(context, expected, *actual);
    if (op == ir::Op::kExists && expected.truthy) return true;
    return some_element_passes(context, expected, *actual);
  }
  if (!expected_array && actual == nullptr && container.is_array()) {
    // {"equals":{"body":{"key":"x"}}} against a JSON array of objects: any element may match
    // the whole expected object (kept by Mountebank for backwards compatibility).
    for (const auto& candidate : container) {
      if (test(context, whole, &candidate)) return true;
    }
    return false;
  }
  if (expected.is_object()) return satisfied(context, expected, actual);
  return test(context, expected, actual);
}

bool PreparedPredicate::Impl::test(RequestContext& context, const Expected& expected,
                                   const ir::Json* actual) const {
  static const ir::Json kEmpty = "";  // a missing actual counts as ""
  if (actual == nullptr) actual = &kEmpty;
  if (expected.is_object()) return satisfied(context, expected, actual);
  return apply_operator(expected, *actual);
}

namespace {

// Array.prototype.indexOf's strict equality between an expected scalar and an element.
bool strict_equals(const Expected& expected, const ir::Json& actual) {
  switch (expected.kind) {
    case Expected::Kind::kString:
      return actual.is_string() && actual.get_ref<const std::string&>() == expected.text;
    case Expected::Kind::kNumber:
      return actual.is_number() && actual.get<double>() == expected.value.get<double>();
    case Expected::Kind::kBool:
      return actual.is_boolean() && actual == expected.value;
    case Expected::Kind::kNull:
      return actual.is_null();
    default:
      return false;
  }
}

}  // namespace

// apply_operator for a string actual.
bool PreparedPredicate::Impl::apply_to_text(const Expected& expected,
                                            std::string_view actual) const {
  switch (op) {
    case ir::Op::kEquals:
      return expected.kind != Expected::Kind::kNull && actual == expected.text;
    case ir::Op::kContains:
      return actual.find(expected.text) != std::string_view::npos;
    case ir::Op::kStartsWith:
      return actual.starts_with(expected.text);
    case ir::Op::kEndsWith:
      return actual.ends_with(expected.text);
    case ir::Op::kExists:
      return expected.truthy ? !actual.empty() : actual.empty();
    case ir::Op::kMatches:
      return expected.regex->test(actual);
    default:
      return false;
  }
}

bool PreparedPredicate::Impl::apply_operator(const Expected& expected,
                                             const ir::Json& actual) const {
  if (actual.is_string()) return apply_to_text(expected, actual.get_ref<const std::string&>());
  switch (op) {
    case ir::Op::kEquals:
      if (expected.kind == Expected::Kind::kNull || actual.is_null()) {
        return expected.kind == Expected::Kind::kNull && actual.is_null();
      }
      if (actual.is_string()) return actual.get_ref<const std::string&>() == expected.text;
      return js::to_string(actual) == expected.text;
    case ir::Op::kContains:
    case ir::Op::kStartsWith:
    case ir::Op::kEndsWith: {
      if (actual.is_array()) {
        if (actual.empty()) return false;
        if (op == ir::Op::kStartsWith) return strict_equals(expected, actual.front());
        std::size_t from = 0;
        if (op == ir::Op::kEndsWith && expected.kind == Expected::Kind::kString &&
            expected.text.size() < actual.size()) {
          from = actual.size() - expected.text.size();
        }
        for (std::size_t i = from; i < actual.size(); ++i) {
          if (strict_equals(expected, actual[i])) return true;
        }
        return false;
      }
      // Mountebank throws on non-strings here (docs/mountebank-semantics.md §4.3 quirk, may fix):
      // use String(actual).
      const std::string converted = actual.is_string() ? std::string() : js::to_string(actual);
      const std::string& text =
          actual.is_string() ? actual.get_ref<const std::string&>() : converted;
      if (op == ir::Op::kContains) return text.find(expected.text) != std::string::npos;
      if (op == ir::Op::kStartsWith) return text.starts_with(expected.text);
      return text.ends_with(expected.text);
    }
    case ir::Op::kExists: {
      const bool empty = actual.is_string() && actual.get_ref<const std::string&>().empty();
      return expected.truthy ? !empty : empty;
    }
    case ir::Op::kMatches:
      if (actual.is_string()) return expected.regex->test(actual.get_ref<const std::string&>());
      return expected.regex->test(js::to_string(actual));
    default:
      return false;
  }
}

// ---------------------------------------------------------------------------------------------
// deepEquals (docs/mountebank-semantics.md §4.4).

bool PreparedPredicate::Impl::evaluate_deep_equals(RequestContext& context) const {
  const bool selected = has_jsonpath || xpath;
  for (const auto& field : fields) {
    std::optional<ir::Json> own_value;
    const std::optional<ir::Json>& value = field_value(context, field, own_value);
    std::string actual;
    if (value && value->is_string() && field.expected_is_object) {
      const std::string& text = value->get_ref<const std::string&>();
      // The canonical form straight from the simdjson tape; the tree path below for text that
      // is not JSON or that simdjson cannot read exactly, and with slow paths.
      if (!context.slow_paths()) {
        json_stream::Canonical streamed = json_stream::forced_canonical(text, request_transform);
        if (streamed.outcome == json_stream::Outcome::kRead) {
          if (streamed.text != field.canonical) return false;
          continue;
        }
      }
      std::optional<ir::Json> own_parsed;
      const auto& parsed = parsed_field(context, field, text, own_parsed);
      // Mountebank normalizes the parsed value once more (fold, except, sort) after forcing
      // strings; transform_json re-applies the fold and except, canonical sorts.
      const ir::Json normalized = predicates::transform_json(
          predicates::force_strings(parsed ? *parsed : *value), request_transform);
      actual = predicates::canonical(&normalized, true);
    } else {
      // Selector results are sorted only at the top (orderIndependent); request fields such as
      // repeated query keys are sorted at every level.
      actual = predicates::canonical(value ? &*value : nullptr, !selected);
    }
    if (actual != field.canonical) return false;
  }
  return true;
}

}  // namespace rift
