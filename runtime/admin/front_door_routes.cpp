#include "runtime/admin/front_door_routes.h"

#include "runtime/front_door/front_door.h"

namespace rift::admin {

namespace {

// An admin API without a front door (an embedding, a fuzzer) has no table to show or replace.
bool refused_without_front_door(AdminState& state, Call& call) {
  if (state.front_door) return false;
  call.fail(404, {MbError{"no such resource", "this server has no front door"}});
  return true;
}

}  // namespace

void get_front_door_routes(AdminState& state, Call& call) {
  if (refused_without_front_door(state, call)) return;
  call.send(200, state.front_door->routes());
}

void put_front_door_routes(AdminState& state, Call& call) {
  if (refused_without_front_door(state, call)) return;
  if (!call.body.is_object() || !call.body.contains("routes")) {
    return call.fail(400, {bad_data("expected {\"routes\": [...]}")});
  }
  if (auto error = state.front_door->set_routes(call.body)) {
    return call.fail(400, {bad_data(*error)});
  }
  call.send(200, state.front_door->routes());
}

}  // namespace rift::admin
