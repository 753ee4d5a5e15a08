// One accepting socket on one worker, plus the connections it accepted (so that closing an
// imposter also drops its clients). Touched only from its worker's thread.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/intrusive/list.hpp>
#include <memory>

#include "runtime/http/asio_types.h"
#include "runtime/http/message.h"

namespace rift::http {

class Connection;

// Connections unlink themselves when destroyed, so the listener never holds a dangling entry.
using ConnectionHook =
    boost::intrusive::list_base_hook<boost::intrusive::link_mode<boost::intrusive::auto_unlink>>;

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(Acceptor acceptor, std::shared_ptr<const Handler> handler, Limits limits);
  ~Listener();  // out of line: Connection is incomplete here

  void start();
  // Closes the accepting socket and every connection; the port is free when this returns.
  void close();

  const Handler& handler() const { return *handler_; }
  const Limits& limits() const { return limits_; }
  void track(Connection& connection);

 private:
  void accept();

  Acceptor acceptor_;
  Timer retry_;
  std::shared_ptr<const Handler> handler_;
  Limits limits_;
  boost::intrusive::list<Connection, boost::intrusive::base_hook<ConnectionHook>,
                         boost::intrusive::constant_time_size<false>>
      connections_;
  bool closed_ = false;
};

}  // namespace rift::http
