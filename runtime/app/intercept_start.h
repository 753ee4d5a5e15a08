// The intercept proxy asked for at start (docs/intercept.md): the config file's `intercept`
// block or the --intercept-* flags, never both (which would be two answers to one question).
#pragma once

#include <memory>
#include <optional>

#include "compiler/ir.h"
#include "runtime/base/logger.h"
#include "runtime/http/server.h"
#include "runtime/imposter/registry.h"
#include "runtime/intercept/intercept.h"
#include "runtime/options/options.h"

namespace rift {

// Starts it into `slot` (on the control thread); false when it cannot start, said in the log.
bool start_intercept(const Options& options, const std::optional<ir::Json>& block,
                     Registry& registry, http::Server& server, Logger& logger,
                     std::unique_ptr<intercept::Intercept>& slot);

}  // namespace rift
