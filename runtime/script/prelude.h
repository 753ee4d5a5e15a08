// The JavaScript that gives injected functions Mountebank's arguments (see prelude.cpp).
#pragma once

namespace rift::script {

// Source text; evaluating it (with a native `__riftLog(level, message)` on the global) yields the
// object with open/close/run/poll/forget/tick that JsRuntime calls.
const char* prelude_source();

}  // namespace rift::script
