#include "frontends/injection_gate.h"

#include <functional>

#include "compiler/js_value.h"
#include "frontends/rift_script.h"

namespace rift::frontends {
namespace {

const ir::Json kNull;

const ir::Json& member(const ir::Json& object, const char* key) {
  if (!object.is_object()) return kNull;
  auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

bool has_behavior(const ir::Json& response, const char* type,
                  const std::function<bool(const ir::Json&)>& accept) {
  const ir::Json& behaviors = member(response, "behaviors");
  if (!behaviors.is_array()) return false;
  for (const auto& behavior : behaviors) {
    if (behavior.is_object() && behavior.contains(type) && accept(behavior[type])) return true;
  }
  return false;
}

bool has_generator_injection(const ir::Json& response) {
  const ir::Json& generators = member(member(response, "proxy"), "predicateGenerators");
  if (!generators.is_array()) return false;
  for (const auto& generator : generators) {
    if (js::truthy(member(generator, "inject"))) return true;
  }
  return false;
}

bool predicate_injects(const ir::Json& predicate) {
  if (!predicate.is_object()) return false;
  if (js::truthy(member(predicate, "inject"))) return true;
  // Mountebank only looks at the top level; nested injections would run unchecked there.
  if (predicate_injects(member(predicate, "not"))) return true;
  for (const char* combinator : {"or", "and"}) {
    const ir::Json& children = member(predicate, combinator);
    if (!children.is_array()) continue;
    for (const auto& child : children) {
      if (predicate_injects(child)) return true;
    }
  }
  return false;
}

bool has_javascript(const ir::Json& stub) {
  const auto any = [](const ir::Json&) { return true; };
  // A function wait, in Mountebank's spelling or the reference Rift's `{"inject": fn}`.
  const auto is_function = [](const ir::Json& value) {
    return value.is_string() || (value.is_object() && value.contains("inject"));
  };
  for (const auto& response : stub.at("responses")) {
    if (js::truthy(member(response, "inject")) || has_behavior(response, "decorate", any) ||
        has_behavior(response, "wait", is_function) || has_generator_injection(response) ||
        js::truthy(member(member(response, "proxy"), "addDecorateBehavior")) ||
        has_rift_script(response)) {
      return true;
    }
  }
  const ir::Json& predicates = member(stub, "predicates");
  if (predicates.is_array() || predicates.is_object()) {
    for (const auto& predicate : predicates) {
      if (predicate_injects(predicate)) return true;
    }
  }
  return false;
}

bool has_shell(const ir::Json& stub) {
  const auto any = [](const ir::Json&) { return true; };
  for (const auto& response : stub.at("responses")) {
    if (has_behavior(response, "shellTransform", any)) return true;
  }
  return false;
}

}  // namespace

MbErrors injection_errors(const ir::Json& stub) {
  MbErrors errors;
  if (has_javascript(stub)) {
    errors.push_back(MbError{
        "invalid injection",
        "JavaScript injection is not allowed unless mb is run with the --allowInjection flag",
        stub});
  }
  if (has_shell(stub)) {
    errors.push_back(MbError{
        "invalid injection",
        "Shell execution is not allowed unless mb is run with the --allowInjection flag", stub});
  }
  return errors;
}

}  // namespace rift::frontends
