// Stubs by position and by id (docs/stub-ids.md): /imposters/:id/stubs[/:stubIndex] reads and
// /imposters/:id/stubs/by-id/:stubId reads, replaces and deletes. A stub's id is its `id` field,
// unique within its imposter (409 `resource conflict` on every route that would repeat one).
#pragma once

#include "runtime/admin/call.h"
#include "runtime/admin/state.h"

namespace rift::admin {

// 200 {stubs: [stub + _links]}: every stub as GET /imposters/:id shows it.
void get_stubs(AdminState& state, Call& call);
// 200 the stub at :stubIndex with its _links; 404 `Stub index N not found` past the end.
void get_stub(AdminState& state, Call& call);
// 200 the stub whose id is :stubId, as given; 404 `no such resource` without one.
void get_stub_by_id(AdminState& state, Call& call);
// Body: one bare stub. Replaces the stub in place, keeping its position, its id (the path's
// wins over the body's) and its response cycle; 200 the imposter.
void put_stub_by_id(AdminState& state, Call& call);
// Removes the stub; 200 the imposter.
void delete_stub_by_id(AdminState& state, Call& call);

// POST /imposters/:id/enable and /disable: 200 {message}; saved under --datadir.
void post_enable(AdminState& state, Call& call);
void post_disable(AdminState& state, Call& call);

}  // namespace rift::admin
