// The part of a response that needs JavaScript: an `inject` response and the `decorate` and
// function `wait` behaviors (spec 5.1 steps 4-5, 5.7, 6.2), resolved through the script engine
// without blocking the worker. Numeric waits are summed on the way; the other behavior types
// belong to the behavior pipeline and are refused by the feature gate until it lands.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <variant>

#include "compiler/errors.h"
#include "compiler/ir.h"
#include "runtime/script/imposter_scripts.h"

namespace rift {

// True when answering `response` needs the script engine.
bool needs_scripts(const ir::Response& response);

struct ScriptedResponse {
  ir::Json response;                   // before defaults are merged (spec 5.1)
  std::chrono::milliseconds delay{0};  // every wait behavior's, summed
};

using ScriptedDone = std::function<void(std::variant<ScriptedResponse, MbError>)>;

// Resolves `response` for `request` (the request model as JSON). `done` runs on the engine thread
// (or inline when nothing needs it) and must not block; `response` must outlive the call, so the
// caller keeps the plan snapshot that holds it.
void resolve_scripted(const script::ImposterScripts& scripts, const ir::Response& response,
                      ir::Json request, ScriptedDone done);

// The same for a response already resolved to `resolved` (a proxy's capture): only the
// behaviors of `response` run on it.
void apply_scripted_behaviors(const script::ImposterScripts& scripts, const ir::Response& response,
                              ir::Json resolved, ir::Json request, ScriptedDone done);

}  // namespace rift
