#include "runtime/admin/flow_state.h"

#include <string>
#include <variant>

#include "runtime/admin/path_segment.h"
#include "runtime/admin/scenarios.h"
#include "runtime/imposter/imposter.h"

namespace rift::admin {
namespace {

using flow_state::StoreError;

struct Address {
  std::string flow;
  std::string key;
};

// The decoded :flow (and :key, when the route has one), or false once the call has its 400.
bool read_address(Call& call, Address& address, bool with_key) {
  auto flow = decoded_segment(call.flow, "flow id");
  if (auto* error = std::get_if<MbError>(&flow)) {
    call.fail(400, {*error});
    return false;
  }
  address.flow = std::get<std::string>(std::move(flow));
  if (!with_key) return true;
  auto key = decoded_segment(call.key, "flow-state key");
  if (auto* error = std::get_if<MbError>(&key)) {
    call.fail(400, {*error});
    return false;
  }
  address.key = std::get<std::string>(std::move(key));
  return true;
}

ir::Json value_document(const Address& address, const ir::Json& value) {
  return ir::Json{{"flowId", address.flow}, {"key", address.key}, {"value", value}};
}

}  // namespace

void get_flow_value(AdminState&, Call& call) {
  Address address;
  if (!read_address(call, address, true)) return;
  auto value = call.imposter->flow_store()->get(address.flow, address.key);
  if (!store_succeeded(call, value)) return;
  const auto& found = std::get<std::optional<ir::Json>>(value);
  if (!found) return call.fail(404, {MbError{"no such resource", "flow-state key not found"}});
  call.send(200, value_document(address, *found));
}

void put_flow_value(AdminState&, Call& call) {
  Address address;
  if (!read_address(call, address, true)) return;
  auto value = call.body.is_object() ? call.body.find("value") : call.body.end();
  if (!call.body.is_object() || value == call.body.end()) {
    return call.fail(400, {bad_data("missing required field: value")});
  }
  if (!store_succeeded(call, call.imposter->flow_store()->set(address.flow, address.key, *value)))
    return;
  // Echoed as stored: objects with their keys sorted, as a later GET gives them.
  call.send(200, value_document(address, ir::Json::parse(canonical_json(*value))));
}

void delete_flow_value(AdminState&, Call& call) {
  Address address;
  if (!read_address(call, address, true)) return;
  if (!store_succeeded(call, call.imposter->flow_store()->remove(address.flow, address.key)))
    return;
  call.send(200, ir::Json{{"deleted", true}, {"flowId", address.flow}, {"key", address.key}});
}

void delete_flow(AdminState&, Call& call) {
  Address address;
  if (!read_address(call, address, false)) return;
  if (!store_succeeded(call, call.imposter->flow_store()->clear(address.flow))) return;
  call.send(200, ir::Json{{"cleared", true}, {"flowId", address.flow}});
}

}  // namespace rift::admin
