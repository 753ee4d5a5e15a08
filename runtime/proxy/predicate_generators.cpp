#include "runtime/proxy/predicate_generators.h"

#include <functional>
#include <map>

#include "compiler/js_value.h"
#include "compiler/jsonpath.h"
#include "compiler/xpath.h"

namespace rift::proxy {
namespace {

// What a selector yields, as Mountebank's selectionValue: "" for nothing, a scalar for one
// node, an array for several.
using ValueOf = std::function<std::optional<ir::Json>(const ir::Json*)>;

ir::Json selection_value(std::vector<ir::Json> nodes) {
  if (nodes.empty()) return "";
  if (nodes.size() == 1) return std::move(nodes[0]);
  return ir::Json(std::move(nodes));
}

ValueOf jsonpath_value(const ir::Json& config) {
  const std::string selector =
      config.is_object() && config.contains("selector") && config["selector"].is_string()
          ? config["selector"].get<std::string>()
          : "";
  auto parsed = jsonpath::Path::parse(selector);
  auto path = std::make_shared<std::optional<jsonpath::Path>>();
  if (auto* ok = std::get_if<jsonpath::Path>(&parsed)) *path = std::move(*ok);
  return [path](const ir::Json* field) -> std::optional<ir::Json> {
    if (!*path || field == nullptr) return ir::Json("");
    if (field->is_object() || field->is_array()) return selection_value((*path)->select(*field));
    if (!field->is_string()) return ir::Json("");
    auto document = jsonpath::parse_json(field->get_ref<const std::string&>());
    if (!document) return ir::Json("");
    return selection_value((*path)->select(*document));
  };
}

ValueOf xpath_value(const ir::Json& config) {
  std::string selector;
  std::map<std::string, std::string> ns;
  if (config.is_object()) {
    if (config.contains("selector") && config["selector"].is_string()) {
      selector = config["selector"].get<std::string>();
    }
    if (config.contains("ns") && config["ns"].is_object()) {
      for (const auto& [prefix, uri] : config["ns"].items()) {
        if (uri.is_string()) ns[prefix] = uri.get<std::string>();
      }
    }
  }
  auto compiled = xpath::Selector::compile(selector, ns);
  auto shared = std::make_shared<std::optional<xpath::Selector>>();
  if (auto* ok = std::get_if<xpath::Selector>(&compiled)) *shared = std::move(*ok);
  return [shared](const ir::Json* field) -> std::optional<ir::Json> {
    if (!*shared || field == nullptr || !field->is_string()) return ir::Json("");
    xpath::Result result;
    try {
      result = xpath::select(**shared, field->get_ref<const std::string&>());
    } catch (const std::exception&) {
      return ir::Json("");
    }
    return std::visit(
        [](auto&& value) -> ir::Json {
          using T = std::decay_t<decltype(value)>;
          if constexpr (std::is_same_v<T, std::monostate>) {
            return "";
          } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
            std::vector<ir::Json> nodes(value.begin(), value.end());
            return selection_value(std::move(nodes));
          } else {
            return value;
          }
        },
        result);
  };
}

const ir::Json* member(const ir::Json& object, const std::string& key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

// helpers.objFilter: deletes the keys `filter` names (a key, a list, or a nested object).
void remove_ignored(ir::Json& object, const ir::Json& filter) {
  if (!object.is_object()) return;
  auto truthy = [&](const std::string& key) { return js::truthy(member(object, key)); };
  if (filter.is_string()) {
    object.erase(filter.get<std::string>());
  } else if (filter.is_array()) {
    for (const auto& key : filter) {
      if (key.is_string() && truthy(key.get<std::string>())) object.erase(key.get<std::string>());
    }
  } else if (filter.is_object()) {
    for (const auto& [key, nested] : filter.items()) {
      if (truthy(key)) remove_ignored(object[key], nested);
    }
  }
}

// buildEquals: the requested keys of a field, recursing where the request has an object.
ir::Json build_equals(const ir::Json* field, const ir::Json& matchers, const ValueOf& value_of) {
  ir::Json out = ir::Json::object();
  if (!matchers.is_object()) return out;
  for (const auto& [key, nested] : matchers.items()) {
    const ir::Json* value = field != nullptr ? member(*field, key) : nullptr;
    if (value != nullptr && (value->is_object() || value->is_array())) {
      out[key] = build_equals(value, nested, value_of);
    } else if (auto selected = value_of(value)) {
      out[key] = std::move(*selected);
    }
  }
  return out;
}

// buildExists: every leaf of the request becomes true.
ir::Json all_true(const ir::Json& value) {
  if (!value.is_object()) return true;
  ir::Json out = ir::Json::object();
  for (const auto& [key, nested] : value.items()) out[key] = all_true(nested);
  return out;
}

}  // namespace

std::vector<std::string> injected_generators(const ir::Json& generators) {
  std::vector<std::string> sources;
  if (!generators.is_array()) return sources;
  for (const ir::Json& generator : generators) {
    if (!generator.is_object() || !generator.contains("inject")) continue;
    const ir::Json& source = generator["inject"];
    sources.push_back(js::to_string(source));  // `(${matcher.inject})(config)`
  }
  return sources;
}

std::variant<ir::Json, MbError> generate_predicates(ir::Json request, const ir::Json& generators,
                                                    const std::vector<ir::Json>& injected) {
  ir::Json predicates = ir::Json::array();
  if (!generators.is_array()) return predicates;
  size_t next_injected = 0;
  for (const ir::Json& generator : generators) {
    if (!generator.is_object()) continue;
    if (generator.contains("inject")) {
      if (next_injected == injected.size()) {
        return MbError{"invalid injection",
                       "invalid predicateGenerator injection: JavaScript is not available to "
                       "this proxy",
                       std::nullopt};
      }
      for (const ir::Json& predicate : injected[next_injected++]) predicates.push_back(predicate);
      continue;
    }
    ir::Json base = ir::Json::object();
    ValueOf value_of = [](const ir::Json* field) -> std::optional<ir::Json> {
      if (field == nullptr) return std::nullopt;  // undefined: JSON drops the key
      return *field;
    };
    const ir::Json* operator_name = nullptr;
    for (const auto& [key, value] : generator.items()) {
      if (key != "matches" && key != "predicateOperator" && key != "ignore") base[key] = value;
      if (key == "xpath") value_of = xpath_value(value);
      if (key == "jsonpath") value_of = jsonpath_value(value);
      if (key == "predicateOperator") operator_name = &value;
    }
    const ir::Json* matches = member(generator, "matches");
    if (matches == nullptr || !matches->is_object()) continue;
    for (const auto& [field, wanted] : matches->items()) {
      ir::Json predicate = base;
      if (wanted == true && operator_name == nullptr) {
        if (const ir::Json* ignore = member(generator, "ignore")) {
          if (const ir::Json* filter = member(*ignore, field); filter && request.contains(field)) {
            remove_ignored(request[field], *filter);
          }
        }
        ir::Json deep = ir::Json::object();
        if (auto selected = value_of(member(request, field))) deep[field] = std::move(*selected);
        predicate["deepEquals"] = std::move(deep);
      } else if (operator_name != nullptr) {
        // Mountebank puts the whole request under the operator
        // (docs/mountebank-semantics.md §5.6 quirk).
        const std::string op = operator_name->is_string() ? operator_name->get<std::string>() : "";
        if (op == "exists") {
          predicate[op] = all_true(request);
        } else if (auto selected = value_of(&request)) {
          predicate[op] = std::move(*selected);
        }
      } else {
        predicate["equals"] =
            ir::Json{{field, build_equals(member(request, field), wanted, value_of)}};
      }
      predicates.push_back(std::move(predicate));
    }
  }
  return predicates;
}

}  // namespace rift::proxy
