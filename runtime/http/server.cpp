#include "runtime/http/server.h"

#include <algorithm>
#include <latch>

#include "runtime/http/acceptor.h"
#include "runtime/http/listener.h"

namespace rift::http {

namespace asio = boost::asio;
using asio::ip::tcp;

Server::Server(unsigned worker_threads) {
  const unsigned count = std::max(1u, worker_threads);
  workers_.reserve(count);
  for (unsigned i = 0; i < count; ++i) workers_.push_back(std::make_unique<Worker>());
  control_ = std::make_unique<Worker>();
}

Server::~Server() {
  stop();
  // Every loop stops before any is destroyed: a handler queued on one loop may own a connection
  // of another.
  for (auto& worker : workers_) worker->join();
  control_->join();
  workers_.clear();
  control_.reset();
}

std::variant<uint16_t, std::string> Server::listen(const std::string& host, uint16_t port,
                                                   std::shared_ptr<const Handler> handler,
                                                   Limits limits, bool on_control,
                                                   std::shared_ptr<TlsContext> tls) {
  std::lock_guard lock(mutex_);
  if (port != 0 && bound_.contains(port)) return std::string("EADDRINUSE");
  auto resolved = resolve_listen_endpoint(control_->context(), host, port);
  if (auto* error = std::get_if<std::string>(&resolved)) return *error;
  tcp::endpoint endpoint = std::get<tcp::endpoint>(resolved);

  std::vector<Worker*> targets;
  if (on_control) {
    targets.push_back(control_.get());
  } else {
    for (auto& worker : workers_) targets.push_back(worker.get());
    auto probed = probe_port(control_->context(), endpoint);
    if (auto* error = std::get_if<std::string>(&probed)) return *error;
    endpoint.port(std::get<uint16_t>(probed));
  }

  Bound bound;
  for (Worker* worker : targets) {
    limits.worker_slot = static_cast<unsigned>(bound.workers.size());
    auto opened = open_acceptor(worker->context(), endpoint, /*reuse_port=*/!on_control);
    // Acceptors close with `bound` going out of scope, so a failure leaves nothing bound.
    if (auto* error = std::get_if<std::string>(&opened)) return *error;
    auto& acceptor = std::get<Acceptor>(opened);
    if (endpoint.port() == 0) endpoint.port(acceptor.local_endpoint().port());
    bound.listeners.push_back(
        std::make_shared<Listener>(std::move(acceptor), handler, limits, tls));
    bound.workers.push_back(worker);
  }
  const uint16_t bound_port = endpoint.port();
  if (bound_.contains(bound_port)) return std::string("EADDRINUSE");
  for (size_t i = 0; i < bound.listeners.size(); ++i) {
    asio::post(bound.workers[i]->context(), [listener = bound.listeners[i]] { listener->start(); });
  }
  bound_.emplace(bound_port, std::move(bound));
  return bound_port;
}

void Server::close(uint16_t port) {
  Bound bound;
  {
    std::lock_guard lock(mutex_);
    auto it = bound_.find(port);
    if (it == bound_.end()) return;
    bound = std::move(it->second);
    bound_.erase(it);
  }
  close_bound(bound);
}

void Server::close_bound(Bound& bound) {
  // Listeners are closed on their own threads (no locks on the hot path), all at once, and the
  // caller waits; a listener on the caller's own loop is closed inline to avoid waiting on itself.
  std::latch done(static_cast<std::ptrdiff_t>(bound.listeners.size()));
  for (size_t i = 0; i < bound.listeners.size(); ++i) {
    auto listener = bound.listeners[i];
    Worker* worker = bound.workers[i];
    if (worker->is_current()) {
      listener->close();
      done.count_down();
    } else {
      asio::post(worker->context(), [listener, &done] {
        listener->close();
        done.count_down();
      });
    }
  }
  done.wait();
}

void Server::stop() {
  std::map<uint16_t, Bound> all;
  {
    std::lock_guard lock(mutex_);
    all.swap(bound_);
  }
  for (auto& [port, bound] : all) close_bound(bound);
  {
    std::lock_guard lock(stop_mutex_);
    stopped_ = true;
  }
  stop_signal_.notify_all();
}

void Server::run() {
  std::unique_lock lock(stop_mutex_);
  stop_signal_.wait(lock, [this] { return stopped_; });
}

}  // namespace rift::http
