// Behavior schema validation (docs/mountebank-semantics.md §6.3), a port of Mountebank's
// behaviorsValidator.js with the schema of behaviors.js, so every message, its order and its
// `source` match Mountebank's.
#pragma once

#include <vector>

#include "compiler/errors.h"
#include "compiler/ir.h"

namespace rift::frontends {

// Every schema error of a response's `behaviors` value (null or absent means none), in
// Mountebank's order. `response` is the source for errors about the array as a whole.
MbErrors validate_behaviors(const ir::Json& behaviors, const ir::Json& response);

// The behaviors of a response that passed validate_behaviors. Elements without a recognized
// type (such as `{}`, which Mountebank accepts and ignores) are dropped.
std::vector<ir::Behavior> parse_behaviors(const ir::Json& behaviors);

}  // namespace rift::frontends
