// One accepting socket on one worker, plus the connections it accepted (so that closing an
// imposter also drops its clients). Touched only from its worker's thread.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/intrusive/list.hpp>
#include <chrono>
#include <memory>

#include "runtime/http/asio_types.h"
#include "runtime/http/message.h"

namespace boost::asio::ssl {
class context;
}

namespace rift::http {

using TlsContext = boost::asio::ssl::context;

// Connections unlink themselves when destroyed, so the listener never holds a dangling entry.
using ConnectionHook =
    boost::intrusive::list_base_hook<boost::intrusive::link_mode<boost::intrusive::auto_unlink>>;

// What the listener needs of a connection (plain or TLS): to drop it when the port closes.
// The one virtual call is on that rare path, never per request.
class TrackedConnection : public ConnectionHook {
 public:
  // The listener is closing (its imposter was deleted or replaced): an idle connection closes
  // now; one with a request in flight answers it first, then closes (pooled clients see a clean
  // end, never a reply cut off).
  virtual void retire() = 0;
  // Closes the connection if it has waited past a timeout of Limits by `now`.
  virtual void expire(std::chrono::steady_clock::time_point now) = 0;

 protected:
  ~TrackedConnection() = default;
};

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  // `tls` set: every accepted connection speaks TLS with that context (an https imposter).
  Listener(Acceptor acceptor, std::shared_ptr<const Handler> handler, Limits limits,
           std::shared_ptr<TlsContext> tls = nullptr);
  ~Listener();  // out of line: TlsContext is incomplete here

  void start();
  // Closes the accepting socket and retires every connection; the port is free when this
  // returns.
  void close();

  const Handler& handler() const { return *handler_; }
  const Limits& limits() const { return limits_; }
  // How often connections are checked against their timeouts (no timer is armed per request).
  static constexpr std::chrono::seconds kSweepInterval{1};
  // The time of the last sweep, at most kSweepInterval behind the clock: what connections stamp
  // their phases with, read without a clock call on the request path.
  std::chrono::steady_clock::time_point now() const { return now_; }
  void track(TrackedConnection& connection);

 private:
  void accept();
  void retry();
  void accepted(boost::system::error_code error, Socket socket);
  void sweep();
  void count_accept();
  void leave_outage();
  void count_failure(const boost::system::error_code& error);

  Acceptor acceptor_;
  Timer retry_;
  Timer sweep_;
  std::chrono::steady_clock::time_point now_ = std::chrono::steady_clock::now();
  std::shared_ptr<const Handler> handler_;
  Limits limits_;
  std::shared_ptr<TlsContext> tls_;
  boost::intrusive::list<TrackedConnection, boost::intrusive::base_hook<ConnectionHook>,
                         boost::intrusive::constant_time_size<false>>
      connections_;
  bool closed_ = false;
  bool in_outage_ = false;  // the last accept failed for want of a resource (metrics)
};

}  // namespace rift::http
