// A tcp imposter's answers as bytes (docs/tcp.md): Mountebank's tcpServer writes a response's
// `data` and nothing else.
#pragma once

#include <optional>

#include "compiler/errors.h"
#include "compiler/ir.h"
#include "runtime/imposter/response_renderer.h"

namespace rift {

// The wire an imposter speaks, from its protocol and tcp mode.
WireContext::Wire wire_of(const ir::ImposterSettings& imposter);

// `is.data || defaults.data` (defaults: `{"data": ""}` when the imposter has none), as bytes:
// UTF-8 text, or base64 decoded in binary mode. Data Node's Buffer.from refuses (a number, an
// object, nothing at all) gives what Mountebank writes for that TypeError:
// `{"errors":[{"code":"ERR_INVALID_ARG_TYPE"}]}`.
WireResponse render_tcp(const ir::Json& is, const std::optional<ir::Json>& defaults, bool binary);

// What Mountebank writes on the socket when answering failed: {"errors":[error]}.
WireResponse render_tcp_error(const MbError& error);

}  // namespace rift
