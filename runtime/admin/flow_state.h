// The flow-state routes (docs/flow-state.md): /admin/imposters/:id/flow-state/:flow[/:key], to
// read, write and clear what scripts and scenarios keep per flow id. Flow ids and keys are
// percent-decoded as every route parameter is (the reference takes them raw;
// docs/rift-compatibility.md). A store failure answers 503 `backend unavailable`.
#pragma once

#include "runtime/admin/call.h"
#include "runtime/admin/state.h"

namespace rift::admin {

// 200 {flowId, key, value}, or 404 "flow-state key not found".
void get_flow_value(AdminState& state, Call& call);
// Body {"value": <json>}: stores it (restamping its lifetime); 200 {flowId, key, value}.
void put_flow_value(AdminState& state, Call& call);
// 200 {deleted: true, flowId, key}, whether or not the key was there.
void delete_flow_value(AdminState& state, Call& call);
// Removes every key of the flow: 200 {cleared: true, flowId}; idempotent.
void delete_flow(AdminState& state, Call& call);

}  // namespace rift::admin
