// A stub's `routePattern` (docs/route-patterns.md): `/users/:id` against a request path gives
// {"id": "42"} for `/users/42`. Segments are split on '/', so the counts must be equal and every
// literal segment must be equal; anything else gives no parameters (never an error), as in the
// reference Rift. The pattern does not take part in matching.
#pragma once

#include <string_view>

#include "compiler/ir.h"

namespace rift {

// `request.pathParams`: a JSON object of strings, empty when the path does not fit the pattern.
ir::Json route_params(std::string_view pattern, std::string_view path);

}  // namespace rift
