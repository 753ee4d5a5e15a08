// Opening listening sockets: host resolution, dual-stack, SO_REUSEPORT, errno names.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <cstdint>
#include <string>
#include <variant>

#include "runtime/http/asio_types.h"

namespace rift::http {

// "" means every interface: [::] with IPV6_V6ONLY off, or 0.0.0.0 where IPv6 is unavailable.
std::variant<boost::asio::ip::tcp::endpoint, std::string> resolve_listen_endpoint(
    boost::asio::io_context& context, const std::string& host, uint16_t port);

// A listening acceptor on `context`, or an errno-style name ("EADDRINUSE", "EACCES", ...).
std::variant<Acceptor, std::string> open_acceptor(boost::asio::io_context& context,
                                                  const boost::asio::ip::tcp::endpoint& endpoint,
                                                  bool reuse_port);

// Binds (without listening or SO_REUSEPORT) to learn whether the port is really free and which
// port the OS picks for 0. SO_REUSEPORT alone would let us share a port another process holds.
std::variant<uint16_t, std::string> probe_port(boost::asio::io_context& context,
                                               const boost::asio::ip::tcp::endpoint& endpoint);

std::string error_name(const boost::system::error_code& error);

}  // namespace rift::http
