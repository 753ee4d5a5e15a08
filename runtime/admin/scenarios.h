// The scenario routes (docs/scenarios.md): /imposters/:id/scenarios. A scenario's state is a
// string in the flow store under the scenario's name, per flow id; the flow id defaults to the
// imposter's port, the one requests without a flow-id header have. Only scenarios named on the
// imposter's stubs are listed and reset.
#pragma once

#include <string>
#include <variant>

#include "compiler/ir.h"
#include "runtime/admin/call.h"
#include "runtime/admin/state.h"
#include "runtime/flow_state/flow_store.h"

namespace rift::admin {

// 200 {flowId, scenarios: [{name, state}]}, names sorted; ?flowId= picks the flow.
void get_scenarios(AdminState& state, Call& call);
// Body {state, flowId?}: sets one scenario's state; 200 {flowId, name, state}.
void put_scenario_state(AdminState& state, Call& call);
// Body {flowId?}: every named scenario back to Started; 200 {flowId, reset: true}.
void post_scenarios_reset(AdminState& state, Call& call);

// [{name, state}] for every scenario the stubs name, as `flow` sees them.
flow_state::Result<ir::Json> scenario_states(Imposter& imposter, const std::string& flow);
// Removes the flow's state of every scenario the stubs name.
flow_state::Result<flow_state::Done> reset_scenarios(Imposter& imposter, const std::string& flow);

// True when `result` holds a value; otherwise answers the store's 503/500 and returns false.
template <class T>
bool store_succeeded(Call& call, const flow_state::Result<T>& result);

}  // namespace rift::admin
