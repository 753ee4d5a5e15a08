// POST /imposters/:id/verify (docs/journal.md#verify): how many recorded requests satisfy a set
// of predicates, with the predicates evaluated as a stub's are, and the closest miss explained
// clause by clause by the explain machinery (compiler/explain_clauses.h).
#pragma once

#include "runtime/admin/call.h"
#include "runtime/admin/state.h"

namespace rift::admin {

// Body {predicates?, flowId?, includeRequests?, includeClosest?}: 200 {matched, total,
// requests?, closest?}; 400 for predicates a stub could not have.
void post_verify(AdminState& state, Call& call);

}  // namespace rift::admin
