// The reference Rift's lenient stub forms (docs/rift-compatibility.md#lenient-forms), for
// configs recorded by older tools: rewritten into Mountebank's own shape before anything else
// reads the stub, so every later stage (and the admin API's echo) sees only that shape.
//
//   `rules`                       -> `predicates` (ignored when `predicates` has any)
//   {"statusCode", "headers", ...} -> {"is": {...}} (a flat response; `_rift.fault` alone too)
//   `behaviors: {...}`             -> `_behaviors`, which Mountebank's upcast turns into an array
//   stub `delayRange: [{min,max}]` -> a `wait` behavior on every `is` response without one
#pragma once

#include <variant>

#include "compiler/errors.h"
#include "compiler/ir.h"

namespace rift::frontends {

// By value, like upcast_stub; a `delayRange` that is not whole milliseconds is a 400.
std::variant<ir::Json, MbError> lenient_stub(ir::Json stub);

}  // namespace rift::frontends
