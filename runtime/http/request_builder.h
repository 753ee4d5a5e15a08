// Mountebank's request model (docs/mountebank-semantics.md §3) from a wire message.
#pragma once

#include "compiler/request.h"
#include "runtime/http/message.h"

namespace rift::http {

rift::Request build_request(const Message& message);

// The same, refilling `request` in place: a connection keeps one Request and the strings and
// vectors of the last message are reused, so a steady stream of requests allocates nothing here.
void build_request_into(const Message& message, rift::Request& request);

}  // namespace rift::http
