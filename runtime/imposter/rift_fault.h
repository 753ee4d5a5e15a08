// `_rift.fault` at request time (docs/faults.md#probabilistic-faults): the dice decide which parts
// fire, in the reference's order (latency, then tcp, which wins over error), and each part
// becomes what the connection does.
#pragma once

#include <chrono>

#include "compiler/ir.h"
#include "compiler/request.h"
#include "runtime/base/dice.h"
#include "runtime/http/message.h"

namespace rift {

struct FaultRoll {
  std::chrono::milliseconds latency{0};
  const ir::TcpFault* tcp = nullptr;      // fired: the connection misbehaves, nothing is answered
  const ir::ErrorFault* error = nullptr;  // fired (and no tcp fault did): answers instead
};

// One roll per part the fault has, whether or not an earlier part fired, so a seeded sequence
// does not depend on what fired before.
FaultRoll roll_fault(const ir::ResponseFault& fault, Dice& dice);

// What the connection does for a tcp fault: an RST, a close with nothing written, a few bytes of
// garbage, or a response head announcing a chunked body whose first chunk size is not hex.
http::Reply tcp_fault_reply(const ir::TcpFault& fault);

// The `is` response an error fault answers with, its `x-rift-fault` marker included.
ir::Json error_fault_response(const ir::ErrorFault& fault);

// The headers a fired latency fault adds to the answer it delays.
KeyValues latency_markers(std::chrono::milliseconds latency);

}  // namespace rift
