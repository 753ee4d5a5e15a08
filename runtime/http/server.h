// The network layer's front door: worker event loops, listeners, and the control loop.
//
// Threads: the Server runs on its own threads from construction (N workers plus one control
// thread); run() merely blocks until stop(). Imposter listeners get one SO_REUSEPORT acceptor
// per worker, so the kernel spreads connections across workers and a connection never changes
// thread. The admin API listens on the control loop only, so its handlers may wait on the
// workers (close(), call_on_control()) without deadlocking them.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <condition_variable>
#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "runtime/http/listener.h"
#include "runtime/http/message.h"
#include "runtime/http/worker.h"

namespace rift::http {

class Server {
 public:
  explicit Server(unsigned worker_threads);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds host:port (host "" = all interfaces, dual-stack; port 0 = OS-chosen). Returns the bound
  // port or an errno-style name ("EADDRINUSE", "EACCES", ...); on error nothing stays bound.
  // A port this Server already serves is EADDRINUSE even though SO_REUSEPORT would allow it.
  // `tls` set: the port speaks HTTPS with that context (handshakes run on the workers too).
  std::variant<uint16_t, std::string> listen(const std::string& host, uint16_t port,
                                             std::shared_ptr<const Handler> handler, Limits limits,
                                             bool on_control = false,
                                             std::shared_ptr<TlsContext> tls = nullptr);
  // Stops accepting on `port` and drops its connections; returns once the port can be bound
  // again. Callable from the control thread or any non-worker thread.
  void close(uint16_t port);
  // Closes every listener and releases run(). Threads keep running until destruction.
  void stop();
  // Blocks until stop().
  void run();

  // Runs `function` on the control thread and returns its result (inline when already there).
  template <typename Function>
  std::invoke_result_t<Function&> call_on_control(Function&& function) {
    using Result = std::invoke_result_t<Function&>;
    if (control_->is_current()) return function();
    std::packaged_task<Result()> task([&function] { return function(); });
    auto result = task.get_future();
    boost::asio::post(control_->context(), [&task] { task(); });
    return result.get();
  }

  boost::asio::io_context& control_context() { return control_->context(); }
  unsigned worker_count() const { return static_cast<unsigned>(workers_.size()); }

 private:
  struct Bound {
    std::vector<std::shared_ptr<Listener>> listeners;
    std::vector<Worker*> workers;  // listeners[i] lives on workers[i]
  };

  void close_bound(Bound& bound);

  std::vector<std::unique_ptr<Worker>> workers_;
  std::unique_ptr<Worker> control_;
  std::mutex mutex_;  // guards bound_: listen/close/stop may come from main and control threads
  std::map<uint16_t, Bound> bound_;
  std::mutex stop_mutex_;
  std::condition_variable stop_signal_;
  bool stopped_ = false;
};

}  // namespace rift::http
