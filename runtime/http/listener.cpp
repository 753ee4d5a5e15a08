#include "runtime/http/listener.h"

#include <chrono>

#include "runtime/http/connection.h"

namespace rift::http {

namespace asio = boost::asio;
using asio::ip::tcp;

namespace {

template <typename Stream>
void start_tracked(Listener& listener, const std::shared_ptr<Connection<Stream>>& connection) {
  listener.track(*connection);
  connection->start();
}

}  // namespace

Listener::Listener(Acceptor acceptor, std::shared_ptr<const Handler> handler, Limits limits,
                   std::shared_ptr<TlsContext> tls)
    : acceptor_(std::move(acceptor)),
      retry_(acceptor_.get_executor()),
      sweep_(acceptor_.get_executor()),
      handler_(std::move(handler)),
      limits_(limits),
      tls_(std::move(tls)) {}

Listener::~Listener() = default;

void Listener::start() {
  accept();
  sweep();
}

void Listener::sweep() {
  sweep_.expires_after(kSweepInterval);
  sweep_.async_wait([self = shared_from_this()](boost::system::error_code error) {
    if (error || self->closed_) return;
    self->now_ = std::chrono::steady_clock::now();
    // expire() may close (and so unlink) the connection: step the iterator first.
    for (auto it = self->connections_.begin(); it != self->connections_.end();) {
      TrackedConnection& connection = *it++;
      connection.expire(self->now_);
    }
    self->sweep();
  });
}

void Listener::accept() {
  acceptor_.async_accept([self = shared_from_this()](boost::system::error_code error,
                                                     Socket socket) {
    if (self->closed_) return;
    if (error) {
      if (error == asio::error::operation_aborted) return;
      // Out of descriptors or memory: accepting again at once would spin, so back off briefly.
      self->retry_.expires_after(std::chrono::milliseconds(50));
      self->retry_.async_wait([self](boost::system::error_code wait_error) {
        if (!wait_error && !self->closed_) self->accept();
      });
      return;
    }
    BudgetPlace place;
    if (const auto& budget = self->limits_.connections) {
      if (!budget->acquire()) {
        // --maxConnections reached: closed at once, as Node closes past server.maxConnections.
        boost::system::error_code ignored;
        socket.close(ignored);
        self->accept();
        return;
      }
      place = BudgetPlace(budget);
    }
    if (self->tls_) {
      start_tracked(*self, std::make_shared<Connection<TlsStream>>(
                               TlsStream(std::move(socket), *self->tls_), self, std::move(place)));
    } else {
      start_tracked(
          *self, std::make_shared<Connection<Socket>>(std::move(socket), self, std::move(place)));
    }
    self->accept();
  });
}

void Listener::track(TrackedConnection& connection) {
  connections_.push_back(connection);
}

void Listener::close() {
  closed_ = true;
  boost::system::error_code ignored;
  acceptor_.close(ignored);
  retry_.cancel();
  sweep_.cancel();
  // retire() never destroys a connection synchronously (its pending operations own it), but it
  // may unlink it, so step the iterator first.
  for (auto it = connections_.begin(); it != connections_.end();) {
    TrackedConnection& connection = *it++;
    connection.retire();
  }
}

}  // namespace rift::http
