// A tcp imposter's connection (docs/tcp.md): no protocol of its own. What the client writes is
// gathered until it ends a request (every read does, unless the imposter's endOfRequestResolver
// says otherwise), handed to the imposter as a Message whose body is the bytes, and the reply's
// bytes are written back as they are, with nothing around them.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <string>

#include "runtime/http/listener.h"
#include "runtime/http/message.h"

namespace rift::tcp {

struct Framing {
  // Whether the bytes gathered so far are a whole request (endOfRequestResolver). Unset: every
  // read is one. May block the worker briefly (it runs a script).
  std::function<bool(const std::string& gathered)> ends_request;
  // Gathered past this without an end: the connection closes, as no request can be that large.
  size_t max_request_bytes = 10 * 1024 * 1024;
};

// What Limits::raw_connections takes: every accepted socket becomes a TcpConnection serving
// `handler` with `framing`.
std::function<void(http::Listener&, http::Socket, http::BudgetPlace)> connections(
    std::shared_ptr<const http::Handler> handler, Framing framing);

class TcpConnection final : public http::TrackedConnection,
                            public http::ReplySink,
                            public std::enable_shared_from_this<TcpConnection> {
 public:
  TcpConnection(http::Socket socket, std::shared_ptr<const http::Handler> handler,
                std::shared_ptr<const Framing> framing, http::BudgetPlace place);

  void start();
  void retire() override;
  // A tcp client may stay silent as long as it likes (Node sets no timeout on these sockets).
  void expire(std::chrono::steady_clock::time_point) override {}

 private:
  void read();
  void received(size_t size);
  void dispatch();
  void on_reply(http::Reply reply) override;
  void deliver(http::Reply reply);
  void reset();
  void close();

  http::Socket socket_;
  std::shared_ptr<const http::Handler> handler_;
  std::shared_ptr<const Framing> framing_;
  http::BudgetPlace place_;
  http::Timer timer_;
  std::string remote_address_;
  uint16_t remote_port_ = 0;
  std::string gathered_;  // read, not yet a whole request
  std::string out_;       // the reply being written
  http::Message message_;
  bool closed_ = false;
  std::array<char, 16 * 1024> buffer_;
};

}  // namespace rift::tcp
