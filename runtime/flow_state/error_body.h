// How a flow store failure is answered, on the admin API and the data plane alike: 503
// `backend unavailable` when the backend did not answer, 500 when a stored value cannot be used
// as asked. The body is the reference Rift's backend error document (docs/flow-state.md).
#pragma once

#include "compiler/ir.h"
#include "runtime/flow_state/flow_store.h"

namespace rift::flow_state {

int error_status(const StoreError& error);
ir::Json error_body(const StoreError& error);

}  // namespace rift::flow_state
