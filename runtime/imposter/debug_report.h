// `X-Rift-Debug: true` on an imposter request (docs/debug.md): the request is matched as it would
// be, and the answer describes the match instead of serving it: the stub and a preview of the
// response it would give, or, on a miss, every stub with the first clause of it that failed
// (from explain, which the reference Rift does not say).
#pragma once

#include <string_view>

#include "compiler/ir.h"
#include "compiler/request.h"
#include "compiler/scenarios.h"
#include "runtime/http/message.h"
#include "runtime/imposter/plan_snapshot.h"

namespace rift {

// True for `X-Rift-Debug: true` (any case) or `1`; of a repeated header, the last.
bool asks_for_debug(const KeyValues& headers);

// The report for `request` (built from `message`) that matched stub `matched` (kNoMatch: none).
ir::Json debug_report(const PlanSnapshot& snapshot, const http::Message& message,
                      const Request& request, int matched, ScenarioStates* scenarios);

}  // namespace rift
