// The process as the admin API shows it: GET / (links), /config
// (docs/mountebank-semantics.md §1.6), /logs (§1.7) and /metrics (Prometheus text, 1.7).
#pragma once

#include "runtime/admin/call.h"
#include "runtime/admin/state.h"

namespace rift::admin {

void get_root(AdminState& state, Call& call);
void get_config(AdminState& state, Call& call);
void get_logs(AdminState& state, Call& call);
void get_metrics(AdminState& state, Call& call);

}  // namespace rift::admin
