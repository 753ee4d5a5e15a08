// What a proxy sends its origin, header for header as Mountebank's Node client sends it.
#pragma once

#include "compiler/ir.h"
#include "runtime/http/message.h"
#include "runtime/proxy/origin_client.h"

namespace rift::proxy {

// The client's request with `injectHeaders` applied, `Host` pointed at the origin (unless
// injected) and a Content-Length for a body that has no length header.
OutboundRequest outbound_request(const http::Message& message, const ir::Json& proxy,
                                 const Origin& origin);

// `injectHeaders` as predicate generators see them: set by exact name on the request JSON.
void inject_headers(ir::Json& request, const ir::Json& proxy);

}  // namespace rift::proxy
