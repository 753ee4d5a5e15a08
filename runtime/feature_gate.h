// What this build cannot serve yet, decided once per plan.
//
// HTTPS imposters are refused at creation (serving plain HTTP on them would be a silent lie).
// Proxy and inject responses, and the decorate and function-wait behaviors, are stored
// and echoed like Mountebank does, so configs round-trip through the admin API; a request that
// reaches one gets Mountebank's 500 error JSON naming the missing feature, never a silent 200.
#pragma once

#include <optional>

#include "compiler/errors.h"
#include "compiler/ir.h"

namespace rift {

// Creation-time refusals for a whole imposter (empty when it can be served).
MbErrors unsupported_at_creation(const ir::Imposter& imposter);

// The request-time error for a response this build cannot produce, if any.
std::optional<MbError> unsupported_response(const ir::Response& response);

}  // namespace rift
