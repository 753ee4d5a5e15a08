// The front door's route table over the admin API (docs/front-door.md#editing-routes):
// GET /front-door/routes and PUT /front-door/routes, which the reference Rift lacks (its table
// is fixed at start).
#pragma once

#include "runtime/admin/call.h"
#include "runtime/admin/state.h"

namespace rift::admin {

// 200 {"routes": [...]}: every route as it was given.
void get_front_door_routes(AdminState& state, Call& call);
// Replaces the table with the body ({"routes": [...]}) as a unit: 200 with the new table, or
// 400 `bad data` naming the route that is refused, the old table kept.
void put_front_door_routes(AdminState& state, Call& call);

}  // namespace rift::admin
