// A request's flow id (docs/spaces.md): which space's stubs it sees.
#pragma once

#include "compiler/ir.h"
#include "compiler/request.h"

namespace rift {

// Sets request.flow_id: the first value of the source's header, or the imposter's `port` in
// decimal when the source names none or the request lacks it. Reuses the string's buffer, so
// serving stays free of allocation.
void assign_flow_id(const ir::FlowIdSource& source, int port, Request& request);

}  // namespace rift
