// The space routes (docs/spaces.md): /imposters/:id/spaces/:space[/stubs]. A space is the stubs
// whose `space` is its id and the recorded requests whose flow id is; it exists while it has
// either, so reading or tearing down an unknown space answers 200, as the reference Rift does.
#pragma once

#include "runtime/admin/call.h"
#include "runtime/admin/state.h"

namespace rift::admin {

// Appends the body, one bare stub, to the imposter's list in the space (the path's id wins
// over the stub's own `space`): 201 {space, stubs}.
void post_space_stub(AdminState& state, Call& call);
// 200 {space, stubs}: the space's stubs, in list order.
void get_space_stubs(AdminState& state, Call& call);
// 200 {space, stubs, scenarios, numberOfRequests}: its stubs, scenario states, requests.
void get_space(AdminState& state, Call& call);
// Removes the space's stubs, recorded requests and scenario states: 200 {space, tornDown: true}.
void delete_space(AdminState& state, Call& call);

}  // namespace rift::admin
