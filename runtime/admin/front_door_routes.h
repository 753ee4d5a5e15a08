// The front door's route table over the admin API (docs/front-door.md#editing-routes):
// GET/PUT /front-door/routes and GET/PUT /front-door/certificates, which the reference Rift
// lacks (its table is fixed at start, its front door plain HTTP).
#pragma once

#include "runtime/admin/call.h"
#include "runtime/admin/state.h"

namespace rift::admin {

// 200 {"routes": [...]}: every route as it was given.
void get_front_door_routes(AdminState& state, Call& call);
// Replaces the table with the body ({"routes": [...]}) as a unit: 200 with the new table, or
// 400 `bad data` naming the route that is refused, the old table kept.
void put_front_door_routes(AdminState& state, Call& call);

// The front door's certificates (docs/front-door.md#tls): 200 {"certificates": [...]} (names,
// subject, expiry, source; never a key), or 404 when the front door serves plain HTTP.
void get_front_door_certificates(AdminState& state, Call& call);
// Replaces them with the body ({"certificates": [...]}, as the config file's `frontDoorTls`) as
// a unit: 200 with the new set, or 400 `bad data` naming the entry refused, the old set kept.
// Handshakes that have started finish with the certificate they were given.
void put_front_door_certificates(AdminState& state, Call& call);

}  // namespace rift::admin
