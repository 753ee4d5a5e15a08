// The engine: everything a running Rift is, without the process around it. It assembles the
// http::Server and its workers, the tiering, the ServingOptions, the Registry, the AdminApi, the
// FrontDoor, the intercept slot and the --datadir sync, in the order their lifetimes need.
//
// Two owners: serve() (`rift start` and frozen mocks), which adds the process parts (signals,
// pidfile, the console logger, the listeners, the config file), and librift (embed/), which
// drives the same engine in process through request(). There is one assembly, here.
//
// Threads: open() and the destructor on one thread; request() from any thread but Rift's own,
// concurrently; listen_admin() from any non-worker thread.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <variant>

#include "compiler/ir.h"
#include "runtime/admin/admin_api.h"
#include "runtime/admin/call.h"
#include "runtime/base/logger.h"
#include "runtime/front_door/front_door.h"
#include "runtime/http/server.h"
#include "runtime/imposter/plan_snapshot.h"
#include "runtime/imposter/registry.h"
#include "runtime/intercept/intercept.h"
#include "runtime/metrics/rift_metrics.h"
#include "runtime/options/options.h"
#include "runtime/tiering/tiering.h"

namespace rift {

class DatadirSync;
namespace script {
class Engine;
}

struct EngineSetup {
  std::string version = "0.1.0";  // GET /events' and the event bus's
  MatcherFactory compiled;        // a frozen mock's compiled matchers; null: the interpreter
  // Makes the JIT when this build has one; null: `engine == "jit"` is refused and `auto` serves
  // on the interpreter.
  Tiering::CompilerFactory jit;
};

class Engine {
 public:
  // Assembles the engine for `options` and loads --datadir's imposters. `logger` must outlive
  // the engine. Returns the reason it cannot start (for the log) on failure.
  static std::variant<std::unique_ptr<Engine>, std::string> open(const Options& options,
                                                                 const EngineSetup& setup,
                                                                 Logger& logger);
  // Stops the listeners and the workers (stop()), then releases everything in order.
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  const Options& options() const { return options_; }
  http::Server& server() { return *server_; }
  Registry& registry() { return *registry_; }
  AdminApi& admin() { return *admin_; }
  front_door::FrontDoor& front_door() { return *front_door_; }
  std::unique_ptr<intercept::Intercept>& intercept_slot() { return intercept_; }
  const Tiering* tiering() const { return tiering_.get(); }
  const std::shared_ptr<events::EventBus>& events() const { return serving_.events; }
  // Set when options.metrics_port >= 0: the series the listeners and imposters count.
  const std::shared_ptr<metrics::RiftMetrics>& metrics() const { return metrics_; }
  const http::Limits& imposter_limits() const { return imposter_limits_; }
  // The imposters' timeouts with the admin port's body limit, no connection budget, HTTP/1.
  http::Limits admin_limits() const;

  // Binds the admin API (the client filter, then AdminApi::handle) on the control loop.
  // Returns the bound port or the errno-style name; once bound, admin_port() is it.
  std::variant<uint16_t, std::string> listen_admin(const std::string& host, uint16_t port);
  std::optional<uint16_t> admin_port() const;

  // An admin call in process, from any thread but Rift's own: the admin route table on the
  // control thread, or, for a gateway target (/__rift/{port}/...), the imposter on that port,
  // whose HTTP reply is read back into status, headers and body. Returns the reason when there
  // is no HTTP answer (the imposter reset the connection, an event stream was asked for).
  std::variant<AdminReply, std::string> request(AdminRequest request);

  // Closes every listener and shuts the behaviors' services down; idempotent.
  void stop();

 private:
  // open() is the way in; the key keeps the constructor to it (and make_unique). Its explicit
  // constructor stops `{}` from making one outside.
  struct OpenKey {
    explicit OpenKey() = default;
  };

 public:
  Engine(OpenKey, const Options& options, Logger& logger);

 private:
  std::optional<std::string> assemble(const EngineSetup& setup);

  Options options_;
  Logger& logger_;
  std::unique_ptr<http::Server> server_;
  // JavaScript for inject, decorate and wait functions: only allowInjection lets any arrive.
  // After the server (its callbacks answer on the server's loops) and before the registry
  // (workers waiting on it finish before it stops).
  std::unique_ptr<script::Engine> scripts_;
  // Before the registry: it outlives every imposter that may ask it for a compile.
  std::unique_ptr<Tiering> tiering_;
  // Before the registry, so it outlives every imposter that may report a recording.
  std::unique_ptr<DatadirSync> datadir_;
  ServingOptions serving_;
  http::Limits imposter_limits_;
  std::shared_ptr<metrics::RiftMetrics> metrics_;
  std::unique_ptr<Registry> registry_;
  std::unique_ptr<AdminApi> admin_;
  std::unique_ptr<front_door::FrontDoor> front_door_;
  // After the registry: the proxy's listener is closed before the server stops.
  std::unique_ptr<intercept::Intercept> intercept_;
  std::optional<uint16_t> admin_port_;  // guarded by admin_mutex_
  mutable std::mutex admin_mutex_;
  bool stopped_ = false;  // guarded by admin_mutex_
};

}  // namespace rift
