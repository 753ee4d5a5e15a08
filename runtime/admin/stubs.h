// The stubs of one imposter: /imposters/:id/stubs[/:stubIndex] (docs/mountebank-semantics.md §1.3)
// and the removal of proxy recordings (/imposters/:id/savedProxyResponses). Every edit publishes a
// new plan before it is answered and, under --datadir, is saved or rolled back.
#pragma once

#include "runtime/admin/call.h"
#include "runtime/admin/state.h"

namespace rift::admin {

void put_stubs(AdminState& state, Call& call);
void post_stub(AdminState& state, Call& call);
void put_stub(AdminState& state, Call& call);
void delete_stub(AdminState& state, Call& call);
void delete_saved_proxy_responses(AdminState& state, Call& call);

}  // namespace rift::admin
