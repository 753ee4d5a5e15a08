// What a call into the script engine gives back.
#pragma once

#include <functional>
#include <string>
#include <variant>

#include "compiler/ir.h"

namespace rift::script {

// The function threw, timed out, or never answered: `message` is the JavaScript error message
// (Mountebank's `data` field of the `invalid injection` error).
struct ScriptError {
  std::string message;
  bool timed_out = false;  // the time limit stopped it
};

// The function's result as JSON (a response object, a boolean for predicates, a number for wait).
using Outcome = std::variant<ir::Json, ScriptError>;

// Receives the outcome on the engine thread; must not block.
using Done = std::function<void(Outcome)>;

enum class CallKind { kPredicate, kResponse, kDecorate, kWait, kGenerator, kEndOfRequest };

}  // namespace rift::script
