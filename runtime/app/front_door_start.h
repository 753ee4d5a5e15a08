// The front door asked for at start (docs/front-door.md): --frontDoor's listener, speaking HTTPS
// when certificates are given, by --frontDoorCert/--frontDoorKey or by the config file's
// `frontDoorTls` block (never both: two answers to one question).
#pragma once

#include <optional>

#include "compiler/ir.h"
#include "runtime/base/logger.h"
#include "runtime/front_door/front_door.h"
#include "runtime/http/server.h"
#include "runtime/options/options.h"

namespace rift {

// Binds it with `limits` (the imposters'); false when it cannot start, said in the log. Without
// --frontDoor there is nothing to start, and certificate flags are refused as a mistake.
bool start_front_door(const Options& options, const std::optional<ir::Json>& tls_block,
                      front_door::FrontDoor& front_door, http::Server& server,
                      const http::Limits& limits, Logger& logger);

}  // namespace rift
