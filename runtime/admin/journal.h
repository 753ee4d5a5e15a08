// An imposter's request journal: GET and DELETE /imposters/:id/savedRequests, both taking
// `match=` clauses (runtime/admin/journal_filter.h, docs/journal.md). DELETE without a clause is
// Mountebank's (docs/mountebank-semantics.md §1.4); the journal is also read through
// GET /imposters/:id (runtime/imposter/views.h).
#pragma once

#include "runtime/admin/call.h"
#include "runtime/admin/state.h"

namespace rift::admin {

void get_saved_requests(AdminState& state, Call& call);
void delete_saved_requests(AdminState& state, Call& call);

}  // namespace rift::admin
