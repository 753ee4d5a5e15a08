// What the front door's route predicates read (frontends/route_table.h): the request's method,
// its path as sent (no query, not decoded), a `host` header holding its host in lower case
// without a port, and its other headers with their names in lower case. The predicates are all
// case-sensitive, so the contract's rules (host and header names case-insensitive, header values
// and paths exact) are this normalization's.
#pragma once

#include <string_view>

#include "compiler/request.h"
#include "runtime/http/message.h"

namespace rift::front_door {

// Refills `out` (its strings keep their capacity from request to request).
void build_routing_request(const http::Message& message, Request& out);

}  // namespace rift::front_door
