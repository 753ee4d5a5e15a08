// From a resolved response to bytes on the wire when it has behaviors: run the pipeline, then
// merge defaultResponse and render (docs/mountebank-semantics.md §5.1 steps 5 and 7). `is` and
// `inject` responses reply through it; a proxy runs the same pipeline on its capture, then
// records the result.
#pragma once

#include <functional>
#include <memory>
#include <optional>

#include "compiler/ir.h"
#include "runtime/behaviors/pipeline.h"
#include "runtime/http/message.h"
#include "runtime/imposter/response_renderer.h"

namespace rift::behaviors {

// The reply for a computed response: defaults merged and rendered with the flow's delay, or
// Mountebank's 500 error JSON for a failed step or a response that cannot be rendered.
http::Reply render_outcome(Outcome outcome, const std::optional<ir::Json>& defaults,
                           const WireContext& wire_context);

// Calls `respond` exactly once, possibly from another thread: the rendered response with the
// behaviors' total wait as its delay, or Mountebank's 500 error JSON when a step failed.
void reply_with_behaviors(const std::shared_ptr<const Pipeline>& pipeline, StepContext context,
                          ir::Json response, std::optional<ir::Json> defaults,
                          WireContext wire_context, std::function<void(http::Reply)> respond);

}  // namespace rift::behaviors
