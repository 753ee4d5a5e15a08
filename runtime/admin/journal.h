// An imposter's request journal: DELETE /imposters/:id/savedRequests
// (docs/mountebank-semantics.md §1.4). The journal itself is read through GET /imposters/:id
// (runtime/imposter/views.h).
#pragma once

#include "runtime/admin/call.h"
#include "runtime/admin/state.h"

namespace rift::admin {

void delete_saved_requests(AdminState& state, Call& call);

}  // namespace rift::admin
