// The admin port's GET /metrics (docs/metrics.md): what Mountebank 2.9.1 prints there, family for
// family (prom-client's default mb_process_* and mb_nodejs_* series, then the imposter series
// once an imposter exists), followed by the reference Rift's two admin series and the JIT's and
// the event stream's, which tests and the reference's contract read on this port.
#pragma once

#include <string>

#include "runtime/admin/state.h"

namespace rift::admin {

std::string render_admin_metrics(AdminState& state);

}  // namespace rift::admin
