// The single-port gateway (rift-extensions §12, docs/front-door.md#gateway):
// `/__rift/{port}/{path}` on the admin port is answered in process by the imposter on that port,
// any method, the query kept, without the API key, as if the request had reached the imposter from
// loopback.
#pragma once

#include <string>

#include "runtime/http/message.h"
#include "runtime/imposter/registry.h"

namespace rift::front_door {

// True when `message` addresses the gateway; it has then been handed to the imposter (or
// answered with the error envelope: 400 for a port that is not one, 404 for a port without an
// imposter) and `respond` has been used.
// A Rift-written error in the reference's envelope: {"errors": [{code, type, message}]}.
// `marker`, when given, is a header written after Content-Type (the front door's no-route).
http::Reply error_reply(int status, const char* type, const std::string& message, bool close,
                        KeyValues marker = {});

bool serve_gateway(const Registry& registry, http::Message& message, http::Respond& respond);

}  // namespace rift::front_door
