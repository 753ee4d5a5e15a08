#include "runtime/proxy/tcp_origin.h"

#include <array>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <memory>
#include <optional>

#include "compiler/js_value.h"

namespace rift::proxy {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

struct Target {
  std::string host;
  std::string port;
};

// `new URL(to)` with protocol `tcp:`; the port is required (a tcp URL has no default).
std::optional<Target> parse_tcp_url(const std::string& to) {
  constexpr std::string_view kScheme = "tcp://";
  if (to.size() <= kScheme.size() || to.compare(0, kScheme.size(), kScheme) != 0) {
    return std::nullopt;
  }
  std::string rest = to.substr(kScheme.size());
  rest = rest.substr(0, rest.find('/'));
  Target target;
  if (!rest.empty() && rest.front() == '[') {
    const size_t close = rest.find(']');
    if (close == std::string::npos) return std::nullopt;
    target.host = rest.substr(1, close - 1);
    if (close + 1 < rest.size() && rest[close + 1] == ':') target.port = rest.substr(close + 2);
  } else {
    const size_t colon = rest.rfind(':');
    target.host = rest.substr(0, colon);
    if (colon != std::string::npos) target.port = rest.substr(colon + 1);
  }
  if (target.host.empty() || target.port.empty()) return std::nullopt;
  return target;
}

struct Exchange : std::enable_shared_from_this<Exchange> {
  Exchange(asio::io_context& loop, std::string to, std::string bytes,
           std::function<bool(const std::string&)> ends, std::function<void(TcpOriginResult)> done)
      : resolver(loop),
        socket(loop),
        to(std::move(to)),
        out(std::move(bytes)),
        ends(std::move(ends)),
        done(std::move(done)) {}

  void fail(const std::string& message) {
    finish(MbError{"invalid proxy", message + " " + js::stringify(ir::Json(to)), std::nullopt});
  }

  void finish(TcpOriginResult result) {
    if (!done) return;
    boost::system::error_code ignored;
    socket.close(ignored);
    auto callback = std::move(done);
    done = nullptr;
    callback(std::move(result));
  }

  void read() {
    socket.async_read_some(asio::buffer(buffer), [self = shared_from_this()](
                                                     boost::system::error_code error, size_t size) {
      if (error) return self->finish(std::move(self->in));  // closed: what it sent
      self->in.append(self->buffer.data(), size);
      if (!self->ends || self->ends(self->in)) return self->finish(std::move(self->in));
      self->read();
    });
  }

  tcp::resolver resolver;
  tcp::socket socket;
  std::string to;
  std::string out;
  std::string in;
  std::function<bool(const std::string&)> ends;
  std::function<void(TcpOriginResult)> done;
  std::array<char, 16 * 1024> buffer{};
};

}  // namespace

void fetch_tcp(asio::io_context& loop, const std::string& to, std::string bytes,
               std::function<bool(const std::string&)> ends_response,
               std::function<void(TcpOriginResult)> done) {
  const auto target = parse_tcp_url(to);
  if (!target) {
    done(MbError{"invalid proxy", "Unable to proxy to any protocol other than tcp", ir::Json(to)});
    return;
  }
  auto exchange = std::make_shared<Exchange>(loop, to, std::move(bytes), std::move(ends_response),
                                             std::move(done));
  exchange->resolver.async_resolve(
      target->host, target->port,
      [exchange](boost::system::error_code error, tcp::resolver::results_type results) {
        if (error) return exchange->fail("Cannot resolve");
        asio::async_connect(
            exchange->socket, results,
            [exchange](boost::system::error_code connect_error, const tcp::endpoint&) {
              if (connect_error) return exchange->fail("Unable to connect to");
              asio::async_write(exchange->socket, asio::buffer(exchange->out),
                                [exchange](boost::system::error_code write_error, size_t) {
                                  if (write_error) return exchange->fail("Unable to connect to");
                                  exchange->read();
                                });
            });
      });
}

}  // namespace rift::proxy
