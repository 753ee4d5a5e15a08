#include "runtime/http/acceptor.h"

#include <sys/socket.h>

#include <boost/asio/detail/socket_option.hpp>
#include <boost/asio/ip/v6_only.hpp>
#include <cerrno>

namespace rift::http {

namespace asio = boost::asio;
using asio::ip::tcp;
using boost::system::error_code;

namespace {

using ReusePort = asio::detail::socket_option::boolean<SOL_SOCKET, SO_REUSEPORT>;

// Opens and binds; dual-stack for IPv6 so that one socket serves IPv4 clients too.
template <typename AcceptorType>
error_code open_and_bind(AcceptorType& acceptor, const tcp::endpoint& endpoint, bool reuse_port) {
  error_code error;
  acceptor.open(endpoint.protocol(), error);
  if (error) return error;
  if (endpoint.address().is_v6()) {
    acceptor.set_option(asio::ip::v6_only(false), error);
    if (error) return error;
  }
  acceptor.set_option(tcp::acceptor::reuse_address(true), error);
  if (error) return error;
  if (reuse_port) {
    acceptor.set_option(ReusePort(true), error);
    if (error) return error;
  }
  acceptor.bind(endpoint, error);
  return error;
}

}  // namespace

std::string error_name(const error_code& error) {
  if (error.category() != boost::system::system_category()) return error.message();
  switch (error.value()) {
    case EADDRINUSE:
      return "EADDRINUSE";
    case EACCES:
      return "EACCES";
    case EADDRNOTAVAIL:
      return "EADDRNOTAVAIL";
    case EAFNOSUPPORT:
      return "EAFNOSUPPORT";
    case EINVAL:
      return "EINVAL";
    case EMFILE:
      return "EMFILE";
    default:
      return error.message();
  }
}

std::variant<tcp::endpoint, std::string> resolve_listen_endpoint(asio::io_context& context,
                                                                 const std::string& host,
                                                                 uint16_t port) {
  if (host.empty()) {
    // Probe for IPv6 support once per listen; hosts with IPv6 disabled fall back to IPv4.
    tcp::acceptor probe(context);
    error_code error;
    probe.open(tcp::v6(), error);
    if (error) return tcp::endpoint(tcp::v4(), port);
    return tcp::endpoint(tcp::v6(), port);
  }
  error_code error;
  const auto address = asio::ip::make_address(host, error);
  if (!error) return tcp::endpoint(address, port);
  // A name such as "localhost": listen control calls may block, so a synchronous lookup is fine.
  tcp::resolver resolver(context);
  const auto results = resolver.resolve(
      host, std::to_string(port), tcp::resolver::passive | tcp::resolver::numeric_service, error);
  if (error || results.empty()) return std::string("ENOTFOUND");
  return results.begin()->endpoint();
}

std::variant<Acceptor, std::string> open_acceptor(asio::io_context& context,
                                                  const tcp::endpoint& endpoint, bool reuse_port) {
  Acceptor acceptor(context.get_executor());
  error_code error = open_and_bind(acceptor, endpoint, reuse_port);
  if (!error) acceptor.listen(asio::socket_base::max_listen_connections, error);
  if (error) return error_name(error);
  return acceptor;
}

std::variant<uint16_t, std::string> probe_port(asio::io_context& context,
                                               const tcp::endpoint& endpoint) {
  tcp::acceptor acceptor(context);
  error_code error = open_and_bind(acceptor, endpoint, /*reuse_port=*/false);
  if (error) return error_name(error);
  const uint16_t port = acceptor.local_endpoint(error).port();
  if (error) return error_name(error);
  return port;
}

}  // namespace rift::http
