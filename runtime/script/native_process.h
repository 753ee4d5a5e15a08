// What `process` in the inject sandbox reads from the operating system (node_globals.cpp).
#pragma once

#include <js/TypeDecls.h>

namespace rift::script {

// Defines __riftProcess(what) on `global`: 'env' (an object), 'argv' (an array), 'pid', 'ppid',
// 'cwd', 'execPath', 'arch', 'hrtime' ([seconds, nanoseconds] of the monotonic clock) or 'memory'
// ([resident bytes, SpiderMonkey heap bytes]).
bool define_process_natives(JSContext* context, JS::HandleObject global);

}  // namespace rift::script
