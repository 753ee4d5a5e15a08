// The front door's route table (rift-extensions §12, docs/front-door.md): the `routes` block of a
// config file or of PUT /front-door/routes, read and validated as a unit, in its derived order,
// and lowered to ordinary stubs so the planner compiles it like any imposter (every tier, no
// scan): route i of the order is stub i.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "compiler/ir.h"

namespace rift::frontends {

struct Route {
  std::string id;
  int priority = 0;
  bool enabled = true;
  std::optional<std::string> host;                           // lower case; "*.a.test" is a wildcard
  std::optional<std::string> path_prefix;                    // as given, starts with '/'
  std::vector<std::pair<std::string, std::string>> headers;  // names lower case
  std::optional<std::string> method;                         // upper case
  int port = 0;
  bool strip_prefix = false;
  std::optional<std::string> set_host;
  ir::Json source;  // the route as given, for GET /front-door/routes
};

struct RouteTable {
  std::vector<Route> routes;            // the enabled ones, in the order they are tried
  ir::Json source = ir::Json::array();  // every route as given, disabled ones too
  // The stubs the planner compiles: stub i holds route i's clauses over a routing request
  // (routing_request.h). Their responses are empty: the stub index is the answer.
  std::vector<ir::Stub> stubs;
};

// `block` is the value of `routes`: an array of routes (or {"routes": [...]}, the admin form).
// The error names the route: "duplicate route id 'a'".
std::variant<RouteTable, std::string> parse_route_table(const ir::Json& block);

}  // namespace rift::frontends
