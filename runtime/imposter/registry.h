// The running imposters by port, and the listeners that serve them.
//
// Changed only from the control thread (the admin API and start-up), so it needs no lock of its
// own; workers hold their imposter directly, and the gateway and the front door, which look an
// imposter up per request, read the copy published after each change.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <variant>
#include <vector>

#include "compiler/errors.h"
#include "runtime/http/server.h"
#include "runtime/imposter/imposter.h"

namespace rift {

class Registry {
 public:
  // `admin_port` is never given to an imposter, even before the admin API has bound it.
  Registry(http::Server& server, ServingOptions serving, http::Limits limits,
           std::string default_host, int admin_port = 0);

  // Plans the imposter and binds its port (the OS picks one when none is given).
  // Fails with `resource conflict` (port in use), `insufficient access` or, for https, the TLS
  // error of a key, certificate or cipher list OpenSSL refuses; nothing is kept then.
  std::variant<std::shared_ptr<Imposter>, MbError> add(ir::Imposter config);
  std::shared_ptr<Imposter> find(int port) const;
  // The same from any thread (the gateway, the front door): the imposters as of the last change.
  std::shared_ptr<Imposter> find_published(int port) const;
  // Unbinds and forgets; the port is free when this returns. Null when there is no such imposter.
  std::shared_ptr<Imposter> remove(int port);
  std::vector<std::shared_ptr<Imposter>> list() const;  // ascending port
  void remove_all();
  bool port_taken(int port) const { return imposters_.count(port) > 0; }
  // Whether an imposter was ever added: Mountebank's /metrics shows its imposter families from
  // the first creation on, even after every imposter is deleted.
  bool ever_added() const { return ever_added_; }

  // What the imposters are served with, for a listener that serves an imposter of its own (the
  // intercept proxy's).
  http::Server& server() const { return server_; }
  const ServingOptions& serving() const { return serving_; }
  const http::Limits& limits() const { return limits_; }

 private:
  http::Server& server_;
  const ServingOptions serving_;
  const http::Limits limits_;
  const std::string default_host_;
  const int admin_port_;
  void publish();

  std::map<int, std::shared_ptr<Imposter>> imposters_;
  bool ever_added_ = false;
  // A copy of imposters_ for other threads, replaced (never edited) on every change.
  std::atomic<std::shared_ptr<const std::map<int, std::shared_ptr<Imposter>>>> published_{
      std::make_shared<const std::map<int, std::shared_ptr<Imposter>>>()};
};

}  // namespace rift
