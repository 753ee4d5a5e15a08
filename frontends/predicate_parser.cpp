#include "frontends/predicate_parser.h"

#include <string>

#include "compiler/js_value.h"

namespace rift::frontends {
namespace {

bool is_field_operator(ir::Op op) {
  return op != ir::Op::kNot && op != ir::Op::kOr && op != ir::Op::kAnd && op != ir::Op::kInject;
}

// Mountebank reads `selector` from whatever truthy value the parameter holds and fails in its
// selector library when there is none; we say so directly.
std::optional<MbError> parse_selectors(const ir::Json& predicate, ir::Predicate& out) {
  if (auto it = predicate.find("jsonpath"); it != predicate.end() && js::truthy(*it)) {
    if (!it->is_object() || !it->contains("selector") || !(*it)["selector"].is_string()) {
      return bad_data("jsonpath predicate parameter must be an object with a string 'selector'",
                      predicate);
    }
    out.jsonpath = (*it)["selector"].get<std::string>();
  }
  if (auto it = predicate.find("xpath"); it != predicate.end() && js::truthy(*it)) {
    if (!it->is_object() || !it->contains("selector") || !(*it)["selector"].is_string()) {
      return bad_data("xpath predicate parameter must be an object with a string 'selector'",
                      predicate);
    }
    ir::XPathSelector xpath;
    xpath.selector = (*it)["selector"].get<std::string>();
    if (auto ns = it->find("ns"); ns != it->end() && ns->is_object()) {
      for (auto entry = ns->begin(); entry != ns->end(); ++entry) {
        xpath.ns[entry.key()] = js::to_string(entry.value());
      }
    }
    out.xpath = std::move(xpath);
  }
  return std::nullopt;
}

void parse_modifiers(const ir::Json& predicate, ir::Predicate& out) {
  if (auto it = predicate.find("caseSensitive"); it != predicate.end()) {
    out.case_sensitive = js::truthy(*it);
  }
  // `except` becomes `new RegExp(except)`, which stringifies non-string sources.
  if (auto it = predicate.find("except"); it != predicate.end() && js::truthy(*it)) {
    out.except = js::to_string(*it);
  }
}

std::optional<MbError> parse_children(const ir::Json& predicate, const std::string& key,
                                      ir::Predicate& out) {
  const ir::Json& value = predicate[key];
  if (out.op == ir::Op::kNot) {
    auto child = parse_predicate(value);
    if (auto* error = std::get_if<MbError>(&child)) return *error;
    out.children.push_back(std::get<ir::Predicate>(std::move(child)));
    return std::nullopt;
  }
  if (!value.is_array()) {
    return bad_data("'" + key + "' predicate must be an array of predicates", predicate);
  }
  for (const auto& element : value) {
    auto child = parse_predicate(element);
    if (auto* error = std::get_if<MbError>(&child)) return *error;
    out.children.push_back(std::get<ir::Predicate>(std::move(child)));
  }
  return std::nullopt;
}

}  // namespace

std::variant<ir::Predicate, MbError> parse_predicate(const ir::Json& predicate) {
  if (!predicate.is_object()) return bad_data("missing predicate", predicate);
  ir::Predicate out;
  std::string key;
  for (auto it = predicate.begin(); it != predicate.end(); ++it) {
    if (auto op = ir::op_from_name(it.key())) {
      out.op = *op;
      key = it.key();
      break;
    }
  }
  if (key.empty()) return bad_data("missing predicate", predicate);

  parse_modifiers(predicate, out);
  if (auto error = parse_selectors(predicate, out)) return *error;

  const ir::Json& value = predicate[key];
  if (is_field_operator(out.op)) {
    out.fields = value;
  } else if (out.op == ir::Op::kInject) {
    out.inject = js::to_string(value);  // `(${predicate.inject})(config, ...)`
  } else if (auto error = parse_children(predicate, key, out)) {
    return *error;
  }
  return out;
}

}  // namespace rift::frontends
