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
  acceptor_.async_accept(
      [self = shared_from_this()](boost::system::error_code error, Socket socket) {
        self->accepted(error, std::move(socket));
      });
}

// After a failed accept: one attempt that does not wait. Nothing pending means the listener can
// accept again (every accept attempt fails while the process is out of descriptors, whether or
// not a connection waits, so a listener with none would otherwise stay in its outage).
void Listener::retry() {
  boost::system::error_code error;
  Socket socket(acceptor_.get_executor());
  acceptor_.non_blocking(true, error);
  if (!error) acceptor_.accept(socket, error);
  if (error == asio::error::would_block || error == asio::error::try_again) {
    leave_outage();
    accept();
    return;
  }
  accepted(error, std::move(socket));
}

void Listener::accepted(boost::system::error_code error, Socket socket) {
  if (closed_) return;
  if (error) {
    if (error == asio::error::operation_aborted) return;
    count_failure(error);
    // Out of descriptors or memory: accepting again at once would spin, so back off briefly.
    retry_.expires_after(std::chrono::milliseconds(50));
    retry_.async_wait([self = shared_from_this()](boost::system::error_code wait_error) {
      if (!wait_error && !self->closed_) self->retry();
    });
    return;
  }
  count_accept();
  BudgetPlace place;
  if (const auto& budget = limits_.connections) {
    if (!budget->acquire()) {
      // --maxConnections reached: closed at once, as Node closes past server.maxConnections.
      boost::system::error_code ignored;
      socket.close(ignored);
      accept();
      return;
    }
    place = BudgetPlace(budget);
  }
  if (limits_.raw_connections) {
    limits_.raw_connections(*this, std::move(socket), std::move(place));
    accept();
    return;
  }
  const auto self = shared_from_this();
  if (tls_) {
    start_tracked(*this, std::make_shared<Connection<TlsStream>>(
                             TlsStream(std::move(socket), *tls_), self, std::move(place)));
  } else {
    start_tracked(*this,
                  std::make_shared<Connection<Socket>>(std::move(socket), self, std::move(place)));
  }
  accept();
}

void Listener::count_accept() {
  if (!limits_.accepts) return;
  limits_.accepts->accepted(limits_.worker_slot);
  leave_outage();
}

void Listener::leave_outage() {
  if (!in_outage_) return;
  in_outage_ = false;
  limits_.accepts->left_outage();
}

void Listener::count_failure(const boost::system::error_code& error) {
  const auto& accepts = limits_.accepts;
  if (!accepts) return;
  const bool systemic =
      error.category() == boost::system::system_category() && systemic_accept_error(error.value());
  accepts->failed(systemic);
  if (systemic && !in_outage_) {
    in_outage_ = true;
    accepts->entered_outage();
  }
}

void Listener::track(TrackedConnection& connection) {
  connections_.push_back(connection);
}

void Listener::close() {
  closed_ = true;
  leave_outage();
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
