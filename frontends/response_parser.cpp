#include "frontends/response_parser.h"

#include <climits>
#include <cmath>
#include <optional>

#include "compiler/header_text.h"
#include "compiler/js_value.h"
#include "frontends/behavior_validator.h"
#include "frontends/proxy_url.h"
#include "frontends/rift_block.h"
#include "frontends/rift_fault.h"
#include "frontends/rift_script.h"
#include "templates/response_template.h"

namespace rift::frontends {
namespace {

const ir::Json* truthy_member(const ir::Json& response, const char* key) {
  auto it = response.find(key);
  return it != response.end() && js::truthy(*it) ? &*it : nullptr;
}

// How many times Mountebank serves the response: its cycle loop runs `j < repeat`, so a
// fractional repeat rounds up and a numeric string counts by its value.
int repeat_count(const ir::Json& response) {
  auto it = response.find("repeat");
  if (it == response.end() || !js::truthy(*it)) return 1;
  std::optional<double> value;
  if (it->is_number()) value = it->get<double>();
  if (it->is_string()) {
    const auto& text = it->get_ref<const std::string&>();
    value = js::number_from_string(text);
    // Mountebank never serves e.g. "2x" (NaN); serving it by its parseInt value is kinder.
    if (!value || std::isnan(*value)) value = js::parse_int(text);
  }
  if (!value || std::isnan(*value) || *value < 1) return 1;
  if (*value >= static_cast<double>(INT_MAX)) return INT_MAX;
  return static_cast<int>(std::ceil(*value));
}

std::optional<MbError> check_proxy(const ir::Json& proxy) {
  const ir::Json* to = nullptr;
  if (proxy.is_object()) {
    if (auto it = proxy.find("to"); it != proxy.end()) to = &*it;
  }
  if (auto error = check_proxy_to(to)) return error;
  if (proxy.is_object()) {
    if (auto it = proxy.find("injectHeaders"); it != proxy.end()) {
      if (auto problem = header_text::problem(*it))
        return bad_data("proxy.injectHeaders: " + *problem);
    }
  }
  // The dry run also builds the recorded stub's predicates from each generator; Mountebank
  // throws a bare TypeError where we report bad data.
  if (!proxy.contains("predicateGenerators") || proxy["predicateGenerators"].is_null()) {
    return std::nullopt;
  }
  const ir::Json& generators = proxy["predicateGenerators"];
  if (!generators.is_array()) return bad_data("proxy.predicateGenerators must be an array");
  for (const auto& generator : generators) {
    if (generator.is_object() && generator.contains("inject") && js::truthy(generator["inject"])) {
      continue;
    }
    if (!generator.is_object() || !generator.contains("matches") ||
        generator["matches"].is_null()) {
      return bad_data("each predicateGenerator needs a 'matches' object or an 'inject' function");
    }
  }
  return std::nullopt;
}

// `_rift.templated` (docs/templates.md): a JSON boolean when present, as the reference asks.
std::variant<bool, MbError> templated_flag(const ir::Json& response) {
  auto block = response.find("_rift");
  if (block == response.end() || !block->is_object()) return false;
  auto flag = block->find("templated");
  if (flag == block->end()) return false;
  if (!flag->is_boolean()) return bad_data("'_rift.templated' must be true or false", *flag);
  return flag->get<bool>();
}

}  // namespace

MbErrors repeat_errors(const ir::Json& response) {
  MbErrors errors;
  if (!response.is_object() || !response.contains("repeat")) return errors;
  const ir::Json& repeat = response["repeat"];
  const ir::Json* source = &response;
  const auto error = [&] {
    return bad_data("\"repeat\" field must be an integer greater than 0", *source);
  };
  const std::string type = js::type_of(repeat);
  if (type != "number" && type != "string") errors.push_back(error());
  if (repeat.is_string()) {
    const auto value = js::parse_int(repeat.get<std::string>());
    if (value && *value <= 0) errors.push_back(error());
  }
  if (repeat.is_number() && repeat.get<double>() <= 0) errors.push_back(error());
  return errors;
}

std::variant<ir::Response, MbError> parse_response(const ir::Json& response,
                                                   const ir::Json* scripts) {
  if (!response.is_object()) return bad_data("unrecognized response type", response);
  // A script is checked wherever it is; it answers only when nothing of Mountebank's does.
  auto script = parse_rift_script(response, scripts);
  if (auto* error = std::get_if<MbError>(&script)) return *error;
  auto rift_fault = parse_rift_fault(response);
  if (auto* error = std::get_if<MbError>(&rift_fault)) return *error;
  const ir::Json* is = truthy_member(response, "is");
  const ir::Json* proxy = truthy_member(response, "proxy");
  const ir::Json* inject = truthy_member(response, "inject");
  const ir::Json* fault = truthy_member(response, "fault");
  if ((is != nullptr) + (proxy != nullptr) + (inject != nullptr) + (fault != nullptr) > 1) {
    return bad_data("each response object must have only one response type", response);
  }

  ir::Response out;
  if (is != nullptr) {
    if (is->is_object()) {
      if (auto it = is->find("headers"); it != is->end()) {
        if (auto problem = header_text::problem(*it)) return bad_data(*problem);
      }
    }
    out.kind = ir::ResponseKind::kIs;
    out.value = *is;
    auto templated = templated_flag(response);
    if (auto* error = std::get_if<MbError>(&templated)) return *error;
    out.templated = std::get<bool>(templated);
    // Compiled here only to refuse a bad template now; the plan compiles it again.
    auto compiled = templates::ResponseTemplate::compile(out.value, out.templated);
    if (auto* error = std::get_if<std::string>(&compiled)) return bad_data(*error, response);
  } else if (proxy != nullptr) {
    if (auto error = check_proxy(*proxy)) return *error;
    out.kind = ir::ResponseKind::kProxy;
    out.value = *proxy;
  } else if (inject != nullptr) {
    out.kind = ir::ResponseKind::kInject;
    out.value = *inject;
  } else if (fault != nullptr) {
    out.kind = ir::ResponseKind::kFault;
    out.value = *fault;
  } else if (auto& resolved = std::get<std::optional<ir::Json>>(script)) {
    // The reference runs a script response alone: its behaviors are not applied.
    out.kind = ir::ResponseKind::kScript;
    out.value = std::move(*resolved);
    out.repeat = repeat_count(response);
    return out;
  } else {
    return bad_data("unrecognized response type", response);
  }
  out.repeat = repeat_count(response);
  // A Mountebank fault already misbehaves at the socket; `_rift.fault` shapes the others.
  if (out.kind != ir::ResponseKind::kFault) {
    out.fault = std::move(std::get<std::optional<ir::ResponseFault>>(rift_fault));
  }
  if (auto it = response.find("behaviors"); it != response.end()) {
    out.behaviors = parse_behaviors(*it);
  }
  return out;
}

}  // namespace rift::frontends
