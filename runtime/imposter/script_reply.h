// What an imposter gives a `_rift.script` (docs/scripts.md) and makes of its answer: the ctx
// the script sees, ctx.state's calls on the imposter's flow store, and the response.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "compiler/ir.h"
#include "compiler/request.h"
#include "runtime/flow_state/flow_store.h"
#include "runtime/script/outcome.h"

namespace rift {

// {"request": {...}, "flowId", "stub": {"id", "scenarioName", "scenarioState"}}: the request as
// the reference's scripts see it (header names lower-cased, the last of repeated headers, the
// query from the raw `target` with '+' kept and repeated keys joined with ',', `json` parsed from
// the body or null, a `wire_body` that is not UTF-8 as base64).
ir::Json script_ctx(const Request& request, std::string_view target, std::string_view wire_body,
                    const ir::Stub& stub);

// ctx.state's calls (JSON text in, JSON text out) on `store`; see runtime/script/prelude.cpp.
std::function<std::string(std::string_view)> script_state_bridge(
    std::shared_ptr<flow_state::FlowStore> store);

// The response for a script's outcome, as an `is` object, or a reset or a delay.
struct ScriptAnswer {
  ir::Json is = ir::Json::object();
  bool reset = false;
  std::chrono::milliseconds delay{0};
};
ScriptAnswer script_answer(const script::Outcome& outcome, std::string_view engine);

// The reference's error envelope (rift-extensions §16): {"errors":[{code, type, message}]}, code
// the status as text, type its stable slug.
ir::Json error_document(const std::string& code, const std::string& type,
                        const std::string& message);

// `_rift.scriptEngine.timeoutMs` of an imposter's `_rift` block; 5000 without one.
std::chrono::milliseconds script_time_limit(const ir::Imposter& config);

}  // namespace rift
