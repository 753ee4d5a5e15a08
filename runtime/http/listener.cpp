#include "runtime/http/listener.h"

#include <chrono>

#include "runtime/http/connection.h"

namespace rift::http {

namespace asio = boost::asio;
using asio::ip::tcp;

Listener::Listener(Acceptor acceptor, std::shared_ptr<const Handler> handler, Limits limits)
    : acceptor_(std::move(acceptor)),
      retry_(acceptor_.get_executor()),
      handler_(std::move(handler)),
      limits_(limits) {}

Listener::~Listener() = default;

void Listener::start() {
  accept();
}

void Listener::accept() {
  acceptor_.async_accept(
      [self = shared_from_this()](boost::system::error_code error, Socket socket) {
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
        auto connection = std::make_shared<Connection>(std::move(socket), self);
        self->track(*connection);
        connection->start();
        self->accept();
      });
}

void Listener::track(Connection& connection) {
  connections_.push_back(connection);
}

void Listener::close() {
  closed_ = true;
  boost::system::error_code ignored;
  acceptor_.close(ignored);
  retry_.cancel();
  // abort() never destroys a connection synchronously (its pending operations own it), but it
  // may unlink it, so step the iterator first.
  for (auto it = connections_.begin(); it != connections_.end();) {
    Connection& connection = *it++;
    connection.abort();
  }
}

}  // namespace rift::http
