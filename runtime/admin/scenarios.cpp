#include "runtime/admin/scenarios.h"

#include <set>

#include "runtime/admin/path_segment.h"
#include "runtime/flow_state/error_body.h"
#include "runtime/imposter/imposter.h"
#include "runtime/imposter/scenario_reader.h"

namespace rift::admin {
namespace {

using flow_state::StoreError;

// Named on a stub; a state without a name (the scenario "") is served but not listed, as in the
// reference.
std::set<std::string> scenario_names(const ir::Imposter& config) {
  std::set<std::string> names;
  for (const auto& stub : config.stubs) {
    if (stub.scenario_name && !stub.scenario_name->empty()) names.insert(*stub.scenario_name);
  }
  return names;
}

// The flow a call names in its body (or ?flowId=), else the imposter's port.
std::string flow_of(const Call& call, const ir::Json* named) {
  if (named && named->is_string()) return named->get<std::string>();
  return std::to_string(call.imposter->port());
}

const ir::Json* body_member(const Call& call, const char* name) {
  if (!call.body.is_object()) return nullptr;
  auto it = call.body.find(name);
  return it == call.body.end() ? nullptr : &*it;
}

}  // namespace

template <class T>
bool store_succeeded(Call& call, const flow_state::Result<T>& result) {
  const auto* error = std::get_if<StoreError>(&result);
  if (!error) return true;
  call.send_json_text(flow_state::error_status(*error), flow_state::error_body(*error).dump());
  return false;
}
template bool store_succeeded(Call&, const flow_state::Result<flow_state::Done>&);
template bool store_succeeded(Call&, const flow_state::Result<bool>&);
template bool store_succeeded(Call&, const flow_state::Result<ir::Json>&);
template bool store_succeeded(Call&, const flow_state::Result<std::optional<ir::Json>>&);

flow_state::Result<ir::Json> scenario_states(Imposter& imposter, const std::string& flow) {
  ir::Json out = ir::Json::array();
  for (const auto& name : scenario_names(imposter.config())) {
    auto stored = imposter.flow_store()->get(flow, name);
    if (auto* error = std::get_if<StoreError>(&stored)) return *error;
    auto state = scenario_state_of(std::get<std::optional<ir::Json>>(stored), flow, name);
    if (auto* error = std::get_if<StoreError>(&state)) return *error;
    out.push_back(ir::Json{{"name", name}, {"state", std::get<std::string>(state)}});
  }
  return out;
}

flow_state::Result<flow_state::Done> reset_scenarios(Imposter& imposter, const std::string& flow) {
  for (const auto& name : scenario_names(imposter.config())) {
    auto removed = imposter.flow_store()->remove(flow, name);
    if (auto* error = std::get_if<StoreError>(&removed)) return *error;
  }
  return flow_state::Done{};
}

void get_scenarios(AdminState&, Call& call) {
  std::string flow = std::to_string(call.imposter->port());
  if (auto named = call.query("flowId")) {
    auto decoded = decoded_segment(*named, "flow id");
    if (auto* error = std::get_if<MbError>(&decoded)) return call.fail(400, {*error});
    flow = std::get<std::string>(std::move(decoded));
  }
  auto states = scenario_states(*call.imposter, flow);
  if (!store_succeeded(call, states)) return;
  call.send(200, ir::Json{{"flowId", flow}, {"scenarios", std::get<ir::Json>(states)}});
}

void put_scenario_state(AdminState&, Call& call) {
  const ir::Json* state = body_member(call, "state");
  if (!state || !state->is_string()) {
    return call.fail(400, {bad_data("missing required field: state")});
  }
  auto name = decoded_segment(call.name, "scenario name");
  if (auto* error = std::get_if<MbError>(&name)) return call.fail(400, {*error});
  const std::string flow = flow_of(call, body_member(call, "flowId"));
  const std::string& scenario = std::get<std::string>(name);
  if (!store_succeeded(call, call.imposter->flow_store()->set(flow, scenario, *state))) return;
  call.send(200, ir::Json{{"flowId", flow}, {"name", scenario}, {"state", *state}});
}

void post_scenarios_reset(AdminState&, Call& call) {
  const std::string flow = flow_of(call, body_member(call, "flowId"));
  if (!store_succeeded(call, reset_scenarios(*call.imposter, flow))) return;
  call.send(200, ir::Json{{"flowId", flow}, {"reset", true}});
}

}  // namespace rift::admin
