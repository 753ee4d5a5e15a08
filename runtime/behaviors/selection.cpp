#include "runtime/behaviors/selection.h"

#include <stdexcept>

#include "compiler/ascii.h"
#include "compiler/js_value.h"

namespace rift::behaviors {
namespace {

const ir::Json* member(const ir::Json& object, const char* name) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(name);
  return it == object.end() ? nullptr : &*it;
}

bool truthy_option(const ir::Json& using_config, const char* name) {
  const ir::Json* options = member(using_config, "options");
  const ir::Json* option = options ? member(*options, name) : nullptr;
  return js::truthy(option);
}

MbError selection_too_large(const std::string& selector) {
  return bad_data("jsonpath selection is too large: it passes the limit of " +
                      std::to_string(jsonpath::kMaxSelectionWork) + " units of work",
                  ir::Json(selector));
}

std::string string_member(const ir::Json& object, const char* name) {
  const ir::Json* value = member(object, name);
  return value && value->is_string() ? value->get<std::string>() : std::string();
}

}  // namespace

const ir::Json& config_member(const ir::Json& object, const char* name) {
  static const ir::Json kMissing;
  if (!object.is_object()) return kMissing;
  auto it = object.find(name);
  return it == object.end() ? kMissing : *it;
}

const ir::Json* select_field(const ir::Json& request, const ir::Json& from) {
  const ir::Json* current = &request;
  const ir::Json* step = &from;
  // A one-key object descends by its key, matched exactly; a name is matched ignoring case.
  while (step->is_object() && !step->empty()) {
    if (!current->is_object()) return nullptr;
    auto it = current->find(step->begin().key());
    if (it == current->end()) return nullptr;
    current = &*it;
    step = &step->begin().value();
  }
  if (!current->is_object()) return nullptr;
  const std::string name = js::to_string(*step);
  for (auto it = current->begin(); it != current->end(); ++it) {
    if (!ascii::iequals(it.key(), name)) continue;
    const ir::Json& value = it.value();
    if (value.is_array()) return value.empty() ? nullptr : &value.front();
    return &value;
  }
  return nullptr;
}

Selector::Selector(const ir::Json& using_config)
    : method_(string_member(using_config, "method")),
      selector_(string_member(using_config, "selector")) {
  if (method_ == "regex") {
    auto compiled = Regex::compile(selector_, truthy_option(using_config, "ignoreCase"),
                                   truthy_option(using_config, "multiline"));
    if (auto* regex = std::get_if<Regex>(&compiled)) {
      regex_ = std::move(*regex);
    } else {
      compile_error_ = bad_data(std::get<std::string>(compiled));
    }
  } else if (method_ == "xpath") {
    std::map<std::string, std::string> ns;
    if (const ir::Json* given = member(using_config, "ns"); given && given->is_object()) {
      for (auto it = given->begin(); it != given->end(); ++it) {
        if (it.value().is_string()) ns[it.key()] = it.value().get<std::string>();
      }
    }
    auto compiled = xpath::Selector::compile(selector_, std::move(ns));
    if (auto* selector = std::get_if<xpath::Selector>(&compiled)) {
      xpath_ = std::make_shared<const xpath::Selector>(std::move(*selector));
    } else {
      compile_error_ = bad_data("malformed xpath predicate selector", ir::Json(selector_));
    }
  } else if (method_ == "jsonpath") {
    // Mountebank swallows JSONPath errors: a bad selector just selects nothing.
    auto parsed = jsonpath::Path::parse(selector_);
    if (auto* path = std::get_if<jsonpath::Path>(&parsed)) jsonpath_ = std::move(*path);
  }
}

std::variant<Selection, MbError> Selector::select(const ir::Json* field) const {
  if (compile_error_) return *compile_error_;
  if (method_ == "regex") return select_regex(field);
  if (method_ == "xpath") return select_xpath(field);
  return select_jsonpath(field);
}

Selection Selector::select_regex(const ir::Json* field) const {
  // Quirk (docs/mountebank-semantics.md §6.2): a missing field is read as the text "undefined".
  const std::string subject = js::to_string(field);  // as RegExp.prototype.exec reads it
  Selection values;
  const auto match = regex_->exec(subject);
  if (!match) return values;
  for (size_t i = 0; i < match->groups.size(); ++i) {
    const auto group = match->group(subject, i);
    values.push_back(group ? JsText(std::string(*group)) : std::nullopt);
  }
  return values;
}

std::variant<Selection, MbError> Selector::select_xpath(const ir::Json* field) const {
  Selection values;
  if (!field || !field->is_string()) return values;
  xpath::Result result;
  try {
    result = xpath::select(*xpath_, field->get_ref<const std::string&>());
  } catch (const std::runtime_error&) {
    return bad_data("malformed xpath predicate selector", ir::Json(selector_));
  }
  // Scalars (count(), boolean(), string()) have no node values to copy.
  if (auto* nodes = std::get_if<std::vector<std::string>>(&result)) {
    for (auto& node : *nodes) values.emplace_back(std::move(node));
  }
  return values;
}

std::variant<Selection, MbError> Selector::select_jsonpath(const ir::Json* field) const {
  Selection values;
  if (!field || !jsonpath_) return values;
  std::optional<std::vector<ir::Json>> results;
  if (field->is_object() || field->is_array()) {
    results = jsonpath_->try_select(*field);
  } else if (field->is_string()) {
    const auto document = jsonpath::parse_json(field->get_ref<const std::string&>());
    if (!document) return values;
    results = jsonpath_->try_select(*document);
  } else {
    return values;
  }
  if (!results) return selection_too_large(selector_);
  for (const auto& result : *results) values.emplace_back(js::to_string(result));
  return values;
}

}  // namespace rift::behaviors
