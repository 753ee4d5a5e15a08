// POST /admin/reload (docs/reload.md): reads the process's config source again (--configfile, or
// the imposters in --datadir) and reconciles the running imposters with it, as PUT /imposters
// does with its body.
#pragma once

#include "runtime/admin/call.h"
#include "runtime/admin/state.h"

namespace rift::admin {

// 200 {message, created, replaced, stubPatched, deleted}; 200 {message} without a source;
// 500 `Reload failed (imposters unchanged): ...` when the source cannot be read or is refused.
void post_reload(AdminState& state, Call& call);

}  // namespace rift::admin
