#include "runtime/imposter/rift_fault.h"

#include <string>

namespace rift {
namespace {

// What the reference writes for its random-data and malformed-chunk kinds, so a client's error
// handling sees the same bytes from both servers.
using namespace std::string_view_literals;
constexpr std::string_view kGarbage = "\x00\xff\xfe\xfd\x13\x37\xde\xad\xbe\xef"sv;
constexpr std::string_view kMalformedChunk =
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nZZZZZ not a valid chunk size\r\n";

bool fires(double probability, Dice& dice) {
  return dice.unit() < probability;
}

}  // namespace

FaultRoll roll_fault(const ir::ResponseFault& fault, Dice& dice) {
  FaultRoll roll;
  if (fault.latency) {
    const bool fired = fires(fault.latency->probability, dice);
    const int64_t ms = dice.between(fault.latency->min_ms, fault.latency->max_ms);
    if (fired) roll.latency = std::chrono::milliseconds(ms);
  }
  if (fault.tcp && fires(fault.tcp->probability, dice)) roll.tcp = &*fault.tcp;
  if (fault.error && fires(fault.error->probability, dice) && !roll.tcp) {
    roll.error = &*fault.error;
  }
  return roll;
}

http::Reply tcp_fault_reply(const ir::TcpFault& fault) {
  http::Reply reply;
  switch (fault.kind) {
    case ir::TcpFaultKind::kReset:
      reply.reset = true;  // SO_LINGER 0: the close is an RST
      break;
    case ir::TcpFaultKind::kEmpty:
      reply.close = true;
      break;
    case ir::TcpFaultKind::kRandomData:
      reply.bytes = kGarbage;
      reply.close = true;
      break;
    case ir::TcpFaultKind::kMalformedChunk:
      reply.bytes = kMalformedChunk;
      reply.close = true;
      break;
  }
  return reply;
}

ir::Json error_fault_response(const ir::ErrorFault& fault) {
  ir::Json headers = ir::Json::object();
  for (const auto& [name, value] : fault.headers) headers[name] = value;
  headers["x-rift-fault"] = "error";
  return {{"statusCode", fault.status}, {"headers", std::move(headers)}, {"body", fault.body}};
}

KeyValues latency_markers(std::chrono::milliseconds latency) {
  return {{"x-rift-fault", "latency"}, {"x-rift-latency-ms", std::to_string(latency.count())}};
}

}  // namespace rift
