#include "frontends/behavior_validator.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include "compiler/js_value.h"

namespace rift::frontends {
namespace {

struct TypeSpec {
  bool single_key_only = false;
  std::vector<std::string> one_of;
  bool non_negative_integer = false;
};

// One node of Mountebank's validation schema. A node without allowed types is a "top-level
// spec" (copy, lookup): its children are checked relative to the field itself.
struct FieldSpec {
  // A child field by name: a struct of its own because std::pair<std::string, FieldSpec> would
  // have to check FieldSpec's constructors inside FieldSpec's own definition (Clang refuses that).
  struct Child;
  bool required = false;
  std::vector<std::pair<std::string, TypeSpec>> allowed_types;  // keyed by `typeof`
  std::string additional_context;
  std::vector<Child> children;
};
struct FieldSpec::Child {
  std::string first;
  FieldSpec second;
};

FieldSpec from_spec() {
  return {true,
          {{"string", {}}, {"object", {.single_key_only = true}}},
          "the request field to select from",
          {}};
}

FieldSpec into_spec() {
  return {true, {{"string", {}}}, "the token to replace in response fields", {}};
}

FieldSpec using_spec() {
  return {true,
          {{"object", {}}},
          "",
          {{"method", {true, {{"string", {.one_of = {"regex", "xpath", "jsonpath"}}}}, "", {}}},
           {"selector", {true, {{"string", {}}}, "", {}}}}};
}

std::optional<FieldSpec> spec_for(const std::string& behavior) {
  if (behavior == "wait") {
    return FieldSpec{true, {{"string", {}}, {"number", {.non_negative_integer = true}}}, "", {}};
  }
  if (behavior == "copy") {
    return FieldSpec{
        false, {}, "", {{"from", from_spec()}, {"into", into_spec()}, {"using", using_spec()}}};
  }
  if (behavior == "lookup") {
    FieldSpec csv{
        false,
        {{"object", {}}},
        "",
        {{"path", {true, {{"string", {}}}, "the path to the CSV file", {}}},
         {"delimiter", {false, {{"string", {}}}, "the delimiter separator values", {}}},
         {"keyColumn",
          {true, {{"string", {}}}, "the column header to select against the \"key\" field", {}}}}};
    return FieldSpec{
        false,
        {},
        "",
        {{"key", {true, {{"object", {}}}, "", {{"from", from_spec()}, {"using", using_spec()}}}},
         {"fromDataSource",
          {true, {{"object", {.single_key_only = true, .one_of = {"csv"}}}}, "", {{"csv", csv}}}},
         {"into", into_spec()}}};
  }
  if (behavior == "shellTransform") {
    return FieldSpec{true, {{"string", {}}}, "the path to a command line application", {}};
  }
  if (behavior == "decorate") {
    return FieldSpec{true, {{"string", {}}}, "a JavaScript function", {}};
  }
  return std::nullopt;
}

std::optional<ir::BehaviorKind> kind_for(const std::string& behavior) {
  if (behavior == "wait") return ir::BehaviorKind::kWait;
  if (behavior == "copy") return ir::BehaviorKind::kCopy;
  if (behavior == "lookup") return ir::BehaviorKind::kLookup;
  if (behavior == "decorate") return ir::BehaviorKind::kDecorate;
  if (behavior == "shellTransform") return ir::BehaviorKind::kShellTransform;
  return std::nullopt;
}

// `config[a][b]...` for a dotted path; anything that is not an object has no properties here.
const ir::Json* navigate(const ir::Json& config, const std::string& path) {
  const ir::Json* current = &config;
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t dot = std::min(path.find('.', start), path.size());
    const std::string name = path.substr(start, dot - start);
    if (!current->is_object()) return nullptr;
    auto it = current->find(name);
    if (it == current->end()) return nullptr;
    current = &*it;
    start = dot + 1;
  }
  return current;
}

std::string type_error_message(const FieldSpec& spec) {
  std::string message;
  for (std::size_t i = 0; i < spec.allowed_types.size(); ++i) {
    const std::string& type = spec.allowed_types[i].first;
    message += i == 0 ? "must be " : " or ";
    message += (type == "object" ? "an " : "a ") + type;
  }
  if (!spec.additional_context.empty()) message += ", representing " + spec.additional_context;
  return message;
}

// Mountebank compares the enum against the value, or an object's first key (`{"csv": ...}`).
std::optional<std::string> enum_field(const ir::Json& field) {
  if ((field.is_object() || field.is_array()) && !field.empty()) {
    return field.is_object() ? field.begin().key() : std::string("0");
  }
  if (field.is_string()) return field.get<std::string>();
  return std::nullopt;
}

class SchemaChecker {
 public:
  SchemaChecker(const std::string& behavior, const ir::Json& element, MbErrors& errors)
      : behavior_(behavior), element_(element), errors_(errors) {}

  void check_children(const ir::Json& config, const std::string& prefix, const FieldSpec& spec) {
    for (const auto& [name, child] : spec.children) {
      const std::string path = prefix.empty() ? name : prefix + "." + name;
      const ir::Json* field = navigate(config, path);
      if (field == nullptr) {
        if (child.required) add(path, "required");
      } else if (child.allowed_types.empty()) {
        // Restart the path so messages read `"from"`, not `"copy.from"`.
        check_children(*field, "", child);
      } else {
        check_type(child, path, *field, config);
      }
    }
  }

 private:
  void check_type(const FieldSpec& spec, const std::string& path, const ir::Json& field,
                  const ir::Json& config) {
    const std::string type = js::type_of(field);
    auto allowed = std::find_if(spec.allowed_types.begin(), spec.allowed_types.end(),
                                [&](const auto& entry) { return entry.first == type; });
    if (allowed == spec.allowed_types.end()) {
      add(path, type_error_message(spec));
      return;
    }
    const TypeSpec& type_spec = allowed->second;
    if (type_spec.single_key_only && js::key_count(field) != 1) {
      add(path, "must have exactly one key");
    } else if (!type_spec.one_of.empty()) {
      const auto value = enum_field(field);
      if (!value || std::find(type_spec.one_of.begin(), type_spec.one_of.end(), *value) ==
                        type_spec.one_of.end()) {
        std::string joined;
        for (const auto& option : type_spec.one_of) joined += (joined.empty() ? "" : ", ") + option;
        add(path, "must be one of [" + joined + "]");
      }
    } else if (type_spec.non_negative_integer && field.get<double>() < 0) {
      add(path, "must be an integer greater than or equal to 0");
    }
    check_children(config, path, spec);
  }

  void add(const std::string& path, const std::string& message) {
    errors_.push_back(
        bad_data(behavior_ + " behavior \"" + path + "\" field " + message, element_));
  }

  const std::string& behavior_;
  const ir::Json& element_;
  MbErrors& errors_;
};

// `Object.keys(element)`: object keys, or the indexes of a string or array.
std::vector<std::string> keys_of(const ir::Json& element) {
  std::vector<std::string> keys;
  if (element.is_object()) {
    for (auto it = element.begin(); it != element.end(); ++it) keys.push_back(it.key());
  } else {
    for (std::size_t i = 0; i < js::key_count(element); ++i) keys.push_back(std::to_string(i));
  }
  return keys;
}

// The reference Rift's object spellings of `wait` (docs/behaviors.md#wait): `{"min", "max"}`, a
// delay drawn per response, or `{"inject": fn}`, Mountebank's function wait written as an object.
// Node's longest timer, as for a numeric wait; a larger bound would overflow the delay.
constexpr double kMaxWaitMs = 2147483647;

void validate_wait_object(const ir::Json& wait, const ir::Json& element, MbErrors& errors) {
  const auto error = [&](const std::string& path, const std::string& message) {
    errors.push_back(bad_data("wait behavior \"" + path + "\" field " + message, element));
  };
  if (wait.contains("inject")) {
    if (!wait["inject"].is_string()) error("wait.inject", "must be a string");
    return;
  }
  const size_t before = errors.size();
  for (const char* bound : {"min", "max"}) {
    auto it = wait.find(bound);
    if (it == wait.end()) {
      error(std::string("wait.") + bound, "required");
    } else if (!it->is_number() || it->get<double>() < 0 || it->get<double>() > kMaxWaitMs ||
               it->get<double>() != std::floor(it->get<double>())) {
      error(std::string("wait.") + bound,
            "must be a whole number of milliseconds up to 2147483647");
    }
  }
  if (errors.size() == before && wait["max"].get<double>() < wait["min"].get<double>()) {
    error("wait.max", "must not be less than \"wait.min\"");
  }
}

void validate_element(const ir::Json& element, MbErrors& errors) {
  std::vector<std::string> recognized;
  std::optional<std::string> first_unrecognized;
  for (const auto& key : keys_of(element)) {
    if (key == "wait" && element[key].is_object()) {
      recognized.push_back(key);
      validate_wait_object(element[key], element, errors);
    } else if (auto spec = spec_for(key)) {
      recognized.push_back(key);
      FieldSpec wrapper;
      wrapper.children.emplace_back(key, std::move(*spec));
      SchemaChecker(key, element, errors).check_children(element, "", wrapper);
    } else if (!first_unrecognized) {
      first_unrecognized = key;
    }
  }
  if (recognized.empty() && first_unrecognized) {
    errors.push_back(bad_data("Unrecognized behavior: \"" + *first_unrecognized + "\"", element));
  }
  if (recognized.size() > 1) {
    errors.push_back(bad_data("Each behavior object must have only one behavior type", element));
  }
}

}  // namespace

MbErrors validate_behaviors(const ir::Json& behaviors, const ir::Json& response) {
  MbErrors errors;
  if (behaviors.is_null()) return errors;
  if (!behaviors.is_array()) {
    // Mountebank crashes on this; report it like the other shape errors.
    errors.push_back(bad_data("\"behaviors\" field must be an array", response));
    return errors;
  }
  for (const auto& element : behaviors) validate_element(element, errors);
  return errors;
}

std::vector<ir::Behavior> parse_behaviors(const ir::Json& behaviors) {
  std::vector<ir::Behavior> result;
  if (!behaviors.is_array()) return result;
  for (const auto& element : behaviors) {
    if (!element.is_object()) continue;
    for (auto it = element.begin(); it != element.end(); ++it) {
      if (auto kind = kind_for(it.key())) {
        result.push_back(ir::Behavior{*kind, it.value()});
        break;
      }
    }
  }
  return result;
}

}  // namespace rift::frontends
