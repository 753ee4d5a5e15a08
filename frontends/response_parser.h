// Mountebank response JSON (docs/mountebank-semantics.md §5.1, §2.3) to ir::Response.
#pragma once

#include <variant>

#include "compiler/errors.h"
#include "compiler/ir.h"

namespace rift::frontends {

// `"repeat" field must be an integer greater than 0` when Mountebank would reject `repeat`.
MbErrors repeat_errors(const ir::Json& response);

// The dry-run resolution of one response: its type (`each response object must have only one
// response type`, `unrecognized response type`, proxy `to` checks) and its IR. Call only after
// repeat_errors and the behavior validation found nothing. Errors without a source get the
// stub from the caller, as in Mountebank.
// `scripts`: the imposter's `_rift.scripts`, for a `_rift.script.ref` (null: none).
std::variant<ir::Response, MbError> parse_response(const ir::Json& response,
                                                   const ir::Json* scripts = nullptr);

}  // namespace rift::frontends
