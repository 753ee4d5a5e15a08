// Mountebank's compatibility upcast (models/compatibility.js), applied to a stub before it is
// validated and stored: a legacy `_behaviors` object becomes a `behaviors` array plus `repeat`,
// and a single `_behaviors.shellTransform` string becomes an array. The result is what the admin
// API echoes, so key order follows Mountebank's (removed keys vanish, new keys are appended).
#pragma once

#include "compiler/ir.h"

namespace rift::frontends {

// By value: a caller done with its stub moves it in, and nothing is copied.
ir::Json upcast_stub(ir::Json stub);

}  // namespace rift::frontends
