// Rift's own admin views of a running imposter, on separate routes so Mountebank's responses
// stay byte-compatible: GET /imposters/:id/plan and POST /imposters/:id/explain.
#pragma once

#include <optional>

#include "compiler/errors.h"
#include "compiler/ir.h"
#include "runtime/admin/call.h"
#include "runtime/admin/state.h"
#include "runtime/imposter/imposter.h"

namespace rift {

// The decision tree in service, its candidate-set sizes and the shadowing/duplicate analysis,
// with "tier" naming the matcher that executes it.
ir::Json plan_view(const Imposter& imposter);

// Explains a request given as {"method", "path" (may carry "?query"), "query"?: {..},
// "headers"?: {..}, "body"?: string or JSON}; an error names the offending field.
std::variant<ir::Json, MbError> explain_view(const Imposter& imposter, const ir::Json& body);

namespace admin {

// GET /imposters/:id/plan and POST /imposters/:id/explain.
void get_plan(AdminState& state, Call& call);
void post_explain(AdminState& state, Call& call);

}  // namespace admin

}  // namespace rift
