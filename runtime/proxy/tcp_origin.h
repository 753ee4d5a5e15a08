// A tcp imposter's proxy (docs/tcp.md#proxy): the request's bytes to a `tcp://host:port`
// origin, its answer back, as Mountebank's tcpProxy does it, on the calling worker's loop.
#pragma once

#include <boost/asio/io_context.hpp>
#include <functional>
#include <string>
#include <variant>

#include "compiler/errors.h"

namespace rift::proxy {

using TcpOriginResult = std::variant<std::string, MbError>;

// Connects to `to`, writes `bytes`, and gathers what the origin sends until `ends_response` says
// it is whole (Mountebank frames the answer with the imposter's endOfRequestResolver; unset: the
// first packet), then closes. An origin that closes first answers with what it sent. A `to`
// that is not tcp://, cannot be resolved or refuses the connection fails with Mountebank's
// `invalid proxy` errors.
void fetch_tcp(boost::asio::io_context& loop, const std::string& to, std::string bytes,
               std::function<bool(const std::string&)> ends_response,
               std::function<void(TcpOriginResult)> done);

}  // namespace rift::proxy
