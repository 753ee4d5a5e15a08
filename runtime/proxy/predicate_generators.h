// The predicates a proxy records a response under (docs/mountebank-semantics.md §5.6
// "predicateGenerators").
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "compiler/errors.h"
#include "compiler/ir.h"

namespace rift::proxy {

// `request` is the request as Mountebank's JSON shows it (injected headers included).
// `injected[i]` is what the i-th generator with `inject` returned (an array, its predicates put
// in that generator's place); the caller evaluates those through the script engine first.
std::variant<ir::Json, MbError> generate_predicates(ir::Json request, const ir::Json& generators,
                                                    const std::vector<ir::Json>& injected = {});

// The sources of the generators with `inject`, in order.
std::vector<std::string> injected_generators(const ir::Json& generators);

}  // namespace rift::proxy
