// Node's globals for injected functions: process, Buffer, console, require (node_globals.cpp).
#pragma once

namespace rift::script {

// Source text; evaluating it (with the natives __riftLog, __riftHash, __riftRandomBytes and
// __riftProcess on the global) defines process, Buffer, console, require, URL, URLSearchParams,
// TextEncoder and TextDecoder on the global.
const char* node_globals_source();

}  // namespace rift::script
