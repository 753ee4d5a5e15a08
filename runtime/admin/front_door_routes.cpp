#include "runtime/admin/front_door_routes.h"

#include "runtime/front_door/front_door.h"

namespace rift::admin {

void get_front_door_routes(AdminState& state, Call& call) {
  call.send(200, state.front_door->routes());
}

void put_front_door_routes(AdminState& state, Call& call) {
  if (!call.body.is_object() || !call.body.contains("routes")) {
    return call.fail(400, {bad_data("expected {\"routes\": [...]}")});
  }
  if (auto error = state.front_door->set_routes(call.body)) {
    return call.fail(400, {bad_data(*error)});
  }
  call.send(200, state.front_door->routes());
}

}  // namespace rift::admin
