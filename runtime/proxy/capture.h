// An origin's answer as a proxy records it (docs/mountebank-semantics.md §5.6 "Capture"): what `is`
// replays later.
#pragma once

#include "compiler/ir.h"
#include "runtime/proxy/origin_client.h"

namespace rift::proxy {

// {statusCode, headers, body, _mode, _proxyResponseTime}. Binary content (by Content-Encoding
// or Content-Type) is kept as base64; a body that parses as JSON is stored parsed.
ir::Json capture(const OriginResponse& response, long proxy_response_ms);

}  // namespace rift::proxy
