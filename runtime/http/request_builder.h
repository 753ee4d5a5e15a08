// Mountebank's request model (spec section 3) from a wire message.
#pragma once

#include "compiler/request.h"
#include "runtime/http/message.h"

namespace rift::http {

rift::Request build_request(const Message& message);

}  // namespace rift::http
