// The imposters resource: /imposters and /imposters/:id (docs/mountebank-semantics.md §1.2-1.4),
// and the loading paths that share its validation (--configfile, --datadir).
#pragma once

#include <optional>

#include "compiler/ir.h"
#include "runtime/admin/call.h"
#include "runtime/admin/state.h"

namespace rift::admin {

// "[http:4545] Open for business...", as Mountebank logs a new imposter.
void log_open(AdminState& state, const Imposter& imposter);

void get_imposters(AdminState& state, Call& call);
void post_imposter(AdminState& state, Call& call);
void put_imposters(AdminState& state, Call& call);
void delete_imposters(AdminState& state, Call& call);
void get_imposter(AdminState& state, Call& call);
void delete_imposter(AdminState& state, Call& call);

// PUT /imposters semantics (runtime/admin/reconcile.h), also used to load --configfile at
// start-up. Returns the error JSON body on failure.
std::optional<ir::Json> replace_all(AdminState& state, const ir::Json& imposters);
// Creates an imposter saved in the datadir (validated as a POST is; not saved again). Returns
// the error JSON body on failure.
std::optional<ir::Json> restore(AdminState& state, const ir::Json& document);

}  // namespace rift::admin
