// The predicates a proxy records a response under (spec 5.6 "predicateGenerators").
#pragma once

#include <variant>

#include "compiler/errors.h"
#include "compiler/ir.h"

namespace rift::proxy {

// `request` is the request as Mountebank's JSON shows it (injected headers included).
// Generators with `inject` need JavaScript and fail with `invalid injection` here.
std::variant<ir::Json, MbError> generate_predicates(ir::Json request, const ir::Json& generators);

}  // namespace rift::proxy
