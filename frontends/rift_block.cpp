#include "frontends/rift_block.h"

#include <algorithm>
#include <cctype>
#include <tuple>
#include <unordered_set>

#include "compiler/js_value.h"
#include "compiler/scenarios.h"
#include "frontends/flow_store_settings.h"
#include "frontends/proxy_url.h"

namespace rift::frontends {
namespace {

constexpr std::string_view kHeaderPrefix = "header:";

// RFC 9110 §5.6.2 tchar: what a header name is made of.
bool is_token(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](unsigned char c) {
    return std::isalnum(c) ||
           std::string_view("!#$%&'*+-.^_`|~").find(static_cast<char>(c)) != std::string_view::npos;
  });
}

// flowIdSource: "imposter_port", or "header:<Name>". The reference takes any other text for the
// port; a typo then silently puts every test in one space, so here it is an error.
std::optional<MbError> parse_flow_id_source(const ir::Json& source, ir::FlowIdSource& out) {
  const std::string text = source.is_string() ? source.get<std::string>() : "";
  if (text == "imposter_port") return std::nullopt;
  if (text.starts_with(kHeaderPrefix) &&
      is_token(std::string_view(text).substr(kHeaderPrefix.size()))) {
    out.header = text.substr(kHeaderPrefix.size());
    return std::nullopt;
  }
  return bad_data(
      "_rift.flowState.flowIdSource must be \"imposter_port\" or \"header:<Name>\" with a header "
      "name, not " +
          source.dump(-1, ' ', false, ir::Json::error_handler_t::replace),
      source);
}

}  // namespace

std::optional<MbError> space_id_error(std::string_view id) {
  const bool control =
      std::any_of(id.begin(), id.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; });
  if (!control) return std::nullopt;
  return bad_data("a space id may not contain control characters", ir::Json(std::string(id)));
}

std::variant<std::optional<std::string>, MbError> parse_space(const ir::Json& stub) {
  if (!stub.is_object()) return std::optional<std::string>();
  auto it = stub.find("space");
  if (it == stub.end()) return std::optional<std::string>();
  if (!it->is_string()) return bad_data("'space' must be a string", *it);
  if (auto error = space_id_error(it->get_ref<const std::string&>())) return *error;
  return std::optional<std::string>(it->get<std::string>());
}

std::optional<MbError> parse_scenario(const ir::Json& stub, ir::Stub& out) {
  if (!stub.is_object()) return std::nullopt;
  const std::pair<const char*, std::optional<std::string>*> fields[] = {
      {"scenarioName", &out.scenario_name},
      {"requiredScenarioState", &out.required_scenario_state},
      {"newScenarioState", &out.new_scenario_state}};
  for (const auto& [name, slot] : fields) {
    auto it = stub.find(name);
    if (it == stub.end()) continue;
    if (!it->is_string()) return bad_data("'" + std::string(name) + "' must be a string", *it);
    *slot = it->get<std::string>();
  }
  // A state without a scenario name belongs to the scenario named "", as in the reference.
  if ((out.required_scenario_state || out.new_scenario_state) && !out.scenario_name) {
    out.scenario_name = "";
  }
  if (out.required_scenario_state) {
    out.predicates.insert(out.predicates.begin(),
                          scenario_gate(*out.scenario_name, *out.required_scenario_state));
  }
  return std::nullopt;
}

std::optional<MbError> parse_stub_id(const ir::Json& stub, ir::Stub& out) {
  if (!stub.is_object()) return std::nullopt;
  auto it = stub.find("id");
  if (it == stub.end() || it->is_null()) return std::nullopt;
  if (!it->is_string()) return bad_data("'id' must be a string", *it);
  out.id = it->get<std::string>();
  return std::nullopt;
}

std::optional<MbError> parse_route_pattern(const ir::Json& stub, ir::Stub& out) {
  if (!stub.is_object()) return std::nullopt;
  auto it = stub.find("routePattern");
  if (it == stub.end() || it->is_null()) return std::nullopt;
  if (!it->is_string()) return bad_data("'routePattern' must be a string", *it);
  out.route_pattern = it->get<std::string>();
  return std::nullopt;
}

std::optional<MbError> duplicate_stub_id(const std::vector<ir::Stub>& stubs) {
  std::unordered_set<std::string_view> seen;
  for (const auto& stub : stubs) {
    if (!stub.id) continue;
    if (!seen.insert(*stub.id).second) {
      return MbError{"resource conflict", "A stub with id '" + *stub.id + "' already exists"};
    }
  }
  return std::nullopt;
}

namespace {

// `_rift.scriptEngine` (docs/scripts.md): an object whose `timeoutMs` is a whole number of
// milliseconds. Its `defaultEngine` is read by nothing, as in the reference.
std::optional<MbError> script_engine_error(const ir::Json& block) {
  auto engine = block.find("scriptEngine");
  if (engine == block.end() || engine->is_null()) return std::nullopt;
  if (!engine->is_object()) return bad_data("'_rift.scriptEngine' must be an object", *engine);
  auto limit = engine->find("timeoutMs");
  if (limit != engine->end() && !limit->is_null() && !limit->is_number_unsigned()) {
    return bad_data("'_rift.scriptEngine.timeoutMs' must be a whole number of milliseconds",
                    *limit);
  }
  return std::nullopt;
}

// `_rift.seed` (docs/faults.md#seeds): what the imposter's dice start from.
std::optional<MbError> seed_error(const ir::Json& block) {
  auto seed = block.find("seed");
  if (seed == block.end() || seed->is_null() || seed->is_number_unsigned()) return std::nullopt;
  return bad_data("'_rift.seed' must be a whole number from 0 to 18446744073709551615", *seed);
}

}  // namespace

std::optional<uint64_t> rift_seed(const std::optional<ir::Json>& rift) {
  if (!rift || !rift->is_object()) return std::nullopt;
  auto seed = rift->find("seed");
  if (seed == rift->end() || !seed->is_number_unsigned()) return std::nullopt;
  return seed->get<uint64_t>();
}

// The reference's imposter fields beside `_rift` (docs/rift-compatibility.md#imposter-fields).
std::optional<MbError> parse_imposter_extras(const ir::Json& imposter,
                                             ir::ImposterSettings& settings) {
  if (auto forward = imposter.find("defaultForward");
      forward != imposter.end() && !forward->is_null()) {
    if (!forward->is_string()) return bad_data("'defaultForward' must be a URL string", *forward);
    if (auto error = check_proxy_to(&*forward)) {
      return bad_data("'defaultForward': " + error->message, *forward);
    }
    settings.default_forward = forward->get<std::string>();
  }
  if (auto strict = imposter.find("strictBehaviors");
      strict != imposter.end() && !strict->is_null()) {
    if (!strict->is_boolean()) return bad_data("'strictBehaviors' must be a boolean", *strict);
    settings.strict_behaviors = strict->get<bool>();
  }
  for (auto [camel, snake, field] :
       {std::tuple{"serviceName", "service_name", &ir::ImposterSettings::service_name},
        std::tuple{"serviceInfo", "service_info", &ir::ImposterSettings::service_info}}) {
    auto it = imposter.find(camel);
    if (it == imposter.end()) it = imposter.find(snake);
    if (it != imposter.end() && !it->is_null()) settings.*field = *it;
  }
  return std::nullopt;
}

MbErrors parse_rift_block(const ir::Json& imposter, ir::ImposterSettings& settings) {
  if (auto enabled = imposter.find("enabled"); enabled != imposter.end()) {
    if (!enabled->is_boolean()) return {bad_data("'enabled' must be a boolean", *enabled)};
    settings.enabled = enabled->get<bool>();
  }
  if (auto error = parse_imposter_extras(imposter, settings)) return {*error};
  auto block = imposter.find("_rift");
  if (block == imposter.end()) return {};
  if (!block->is_object()) return {bad_data("'_rift' must be an object", *block)};
  settings.rift = *block;
  if (auto error = script_engine_error(*block)) return {*error};
  if (auto error = seed_error(*block)) return {*error};
  auto flow_state = block->find("flowState");
  // null is no block at all, as the reference reads it.
  if (flow_state == block->end() || flow_state->is_null()) return {};
  if (!flow_state->is_object()) {
    return {bad_data("'_rift.flowState' must be an object", *flow_state)};
  }
  MbErrors errors;
  if (auto source = flow_state->find("flowIdSource"); source != flow_state->end()) {
    if (auto error = parse_flow_id_source(*source, settings.flow_id_source)) {
      errors.push_back(std::move(*error));
    }
  }
  if (auto store = parse_flow_store(*flow_state);
      auto* store_errors = std::get_if<MbErrors>(&store)) {
    errors.insert(errors.end(), store_errors->begin(), store_errors->end());
  }
  return errors;
}

}  // namespace rift::frontends
