// The metrics port (--metricsPort, docs/metrics.md): GET /metrics answers the Prometheus text of
// the process's rift_* series; anything else is a 404, as on the reference's metrics listener.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "runtime/http/message.h"

namespace rift {

// `exposition` renders the series on each scrape (on the control thread).
std::shared_ptr<const http::Handler> metrics_port_handler(std::function<std::string()> exposition);

}  // namespace rift
