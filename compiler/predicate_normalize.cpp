#include "compiler/predicate_normalize.h"

#include <algorithm>

#include "compiler/json_stream.h"
#include "compiler/predicate_value.h"

namespace rift::predicates {

std::string Transform::apply(std::string text) const {
  if (lower_values) js::lower_in_place(text);
  if (except) text = except->replace_all(text, "");
  return text;
}

std::string Transform::key(std::string text) const {
  if (lower_keys) js::lower_in_place(text);
  return text;
}

NormalizationKey normalization_key(const Transform& transform) {
  NormalizationKey key;
  key.lower_keys = transform.lower_keys;
  key.lower_values = transform.lower_values;
  if (transform.except) {
    key.has_except = true;
    key.except_ignore_case = transform.except->ignore_case();
    key.except = transform.except->source();
  }
  return key;
}

namespace {

void set_member(std::vector<Expected::Member>& members, std::string key, Expected value) {
  // JavaScript objects: a key folded onto an earlier one overwrites it in place.
  for (auto& [existing, child] : members) {
    if (existing == key) {
      child = std::move(value);
      return;
    }
  }
  members.emplace_back(std::move(key), std::move(value));
}

}  // namespace

std::variant<Expected, std::string> build_expected(const ir::Json& value,
                                                   const ExpectedOptions& options) {
  Expected out;
  if (value.is_object() || value.is_array()) {
    out.kind = value.is_object() ? Expected::Kind::kObject : Expected::Kind::kArray;
    out.truthy = true;
    std::size_t index = 0;
    for (auto it = value.begin(); it != value.end(); ++it, ++index) {
      auto child = build_expected(*it, options);
      if (child.index() == 1) return std::get<1>(std::move(child));
      std::string key = value.is_object() ? options.transform.key(it.key()) : std::to_string(index);
      set_member(out.members, std::move(key), std::get<0>(std::move(child)));
    }
    return out;
  }
  if (value.is_string()) {
    out.kind = Expected::Kind::kString;
    out.value = options.transform.apply(value.get<std::string>());
  } else if (value.is_number()) {
    out.kind = Expected::Kind::kNumber;
    out.value = value.get<double>();
  } else if (value.is_boolean()) {
    out.kind = Expected::Kind::kBool;
    out.value = value;
  } else {
    out.kind = Expected::Kind::kNull;
    out.value = nullptr;
  }
  out.text = js::to_string(out.value);
  out.truthy = js::truthy(&out.value);
  if (options.regex_ignore_case) {
    auto compiled = Regex::compile(out.text, *options.regex_ignore_case);
    if (compiled.index() == 1) return std::get<1>(std::move(compiled));
    out.regex = std::make_shared<const Regex>(std::get<0>(std::move(compiled)));
  }
  return out;
}

ir::Json transform_json(const ir::Json& value, const Transform& transform) {
  if (value.is_object()) {
    ir::Json out = ir::Json::object();
    for (auto it = value.begin(); it != value.end(); ++it) {
      out[transform.key(it.key())] = transform_json(it.value(), transform);
    }
    return out;
  }
  if (value.is_array()) {
    ir::Json out = ir::Json::array();
    for (const auto& element : value) out.push_back(transform_json(element, transform));
    return out;
  }
  if (value.is_string()) return transform.apply(value.get<std::string>());
  return value;
}

std::optional<ir::Json> try_json(const std::string& text, const Transform& transform,
                                 jsonpath::JsonParser& parser) {
  auto parsed = parser.parse(text);
  if (!parsed) return std::nullopt;
  if (!transform.lower_keys && !transform.lower_values && !transform.except) return parsed;
  return transform_json(*parsed, transform);
}

std::optional<ir::Json> try_json_plainly(const std::string& text, const Transform& transform) {
  auto parsed = json_stream::parse_plainly(text);
  if (!parsed) return std::nullopt;
  return transform_json(*parsed, transform);
}

ir::Json force_strings(const ir::Json& value) {
  if (value.is_object()) {
    ir::Json out = ir::Json::object();
    for (auto it = value.begin(); it != value.end(); ++it)
      out[it.key()] = force_strings(it.value());
    return out;
  }
  if (value.is_array()) {
    ir::Json out = ir::Json::array();
    for (const auto& element : value) out.push_back(force_strings(element));
    return out;
  }
  if (value.is_string()) return value;
  return js::to_string(value);
}

namespace {

void append_canonical(const ir::Json& value, bool sort_here, bool sort_nested, std::string& out) {
  if (value.is_object()) {
    std::vector<std::pair<std::string, const ir::Json*>> members;
    for (auto it = value.begin(); it != value.end(); ++it) members.emplace_back(it.key(), &*it);
    std::sort(members.begin(), members.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    out += '{';
    bool first = true;
    for (const auto& [key, child] : members) {
      if (!first) out += ',';
      first = false;
      out += ir::Json(key).dump(-1, ' ', false, ir::Json::error_handler_t::replace);
      out += ':';
      append_canonical(*child, sort_nested, sort_nested, out);
    }
    out += '}';
    return;
  }
  if (value.is_array()) {
    std::vector<std::string> elements;
    elements.reserve(value.size());
    for (const auto& element : value) {
      std::string text;
      append_canonical(element, sort_nested, sort_nested, text);
      elements.push_back(std::move(text));
    }
    append_canonical_array(elements, sort_here, out);
    return;
  }
  if (value.is_number()) {
    out += js::number_to_string(value.get<double>());
    return;
  }
  out += value.dump(-1, ' ', false, ir::Json::error_handler_t::replace);
}

}  // namespace

void append_canonical_array(std::vector<std::string>& elements, bool sort, std::string& out) {
  // Any consistent order makes equal multisets compare equal, as Mountebank's sort intends.
  if (sort) std::sort(elements.begin(), elements.end());
  out += '[';
  for (std::size_t i = 0; i < elements.size(); ++i) {
    if (i > 0) out += ',';
    out += elements[i];
  }
  out += ']';
}

std::string canonical(const ir::Json* value, bool sort_nested) {
  if (value == nullptr) return "undefined";
  std::string out;
  append_canonical(*value, true, sort_nested, out);
  return out;
}

}  // namespace rift::predicates
