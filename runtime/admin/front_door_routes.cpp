#include "runtime/admin/front_door_routes.h"

#include "runtime/front_door/certificate_specs.h"
#include "runtime/front_door/front_door.h"

namespace rift::admin {

namespace {

// An admin API without a front door (an embedding, a fuzzer) has no table to show or replace.
bool refused_without_front_door(AdminState& state, Call& call) {
  if (state.front_door) return false;
  call.fail(404, {MbError{"no such resource", "this server has no front door"}});
  return true;
}

// A front door that serves plain HTTP has no certificates to show or swap.
bool refused_without_tls(AdminState& state, Call& call) {
  if (refused_without_front_door(state, call)) return true;
  if (state.front_door->tls()) return false;
  call.fail(404, {MbError{"no such resource",
                          "the front door serves plain HTTP: start it with --frontDoorCert and "
                          "--frontDoorKey, or a frontDoorTls block, for TLS"}});
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

void get_front_door_certificates(AdminState& state, Call& call) {
  if (refused_without_tls(state, call)) return;
  call.send(200, state.front_door->tls()->table()->describe());
}

void put_front_door_certificates(AdminState& state, Call& call) {
  if (refused_without_tls(state, call)) return;
  auto specs = front_door::read_certificate_block(call.body);
  if (auto* error = std::get_if<std::string>(&specs)) return call.fail(400, {bad_data(*error)});
  auto built =
      front_door::CertificateTable::build(std::get<std::vector<front_door::CertificateSpec>>(specs),
                                          state.front_door->tls()->offers_h2());
  if (auto* error = std::get_if<std::string>(&built)) return call.fail(400, {bad_data(*error)});
  state.front_door->tls()->publish(
      std::get<std::shared_ptr<const front_door::CertificateTable>>(std::move(built)));
  call.send(200, state.front_door->tls()->table()->describe());
}

}  // namespace rift::admin
