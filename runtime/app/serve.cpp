#include "runtime/app/serve.h"

#include <malloc.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "frontends/config_file.h"
#include "runtime/admin/admin_api.h"
#include "runtime/app/front_door_start.h"
#include "runtime/app/intercept_start.h"
#include "runtime/app/metrics_port.h"
#include "runtime/base/logger.h"
#include "runtime/datadir/sync.h"
#include "runtime/front_door/front_door.h"
#include "runtime/http/server.h"
#include "runtime/imposter/registry.h"
#include "runtime/metrics/rift_metrics.h"
#include "runtime/script/engine.h"

namespace rift {

int serve(const Options& options, const ServeSetup& setup) {
  // No glibc fastbins: freeing a large block (a replaced stub list, a parsed admin body) then
  // consolidates every fastbin chunk, which was a quarter of creating a 10,000-stub imposter.
  // Small blocks still come from the per-thread tcache, and the request path allocates nothing.
  mallopt(M_MXFAST, 0);
  // Signals are taken synchronously by this thread, so block them before any thread starts.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  Logger logger(*Logger::parse_level(options.loglevel), options.no_logfile ? "" : options.logfile);
  const unsigned threads =
      options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  http::Server server(threads);

  // JavaScript for inject, decorate and wait functions: only --allowInjection lets any arrive.
  // Declared after the server (its callbacks answer on the server's loops) and before the
  // registry (workers waiting on it finish before it stops). An imposter released later still
  // only touches the engine's shared queue (script::EngineHandle).
  std::unique_ptr<script::Engine> scripts;
  if (options.allow_injection) {
    script::EngineSettings settings;
    settings.time_limit =
        std::chrono::milliseconds(static_cast<int64_t>(options.injection_timeout_ms));
    settings.log = [&logger](LogLevel level, const std::string& message) {
      logger.log(level, message);
    };
    scripts = std::make_unique<script::Engine>(std::move(settings));
  }

  // Declared before the registry: it outlives every imposter that may ask it for a compile.
  std::unique_ptr<Tiering> tiering;
  if (!options.frozen && options.engine != "interp") {
    Tiering::CompilerFactory make_compiler = setup.jit;
    if (!make_compiler && options.engine == "jit") {
      logger.error(
          "--engine jit: this build of rift has no JIT (LLVM and Clang 19 were not found)");
      return 1;
    }
    if (make_compiler && options.engine == "jit") {
      // Asked for by name: fail now, not in the background.
      auto made = std::make_shared<std::variant<std::unique_ptr<TierCompiler>, std::string>>(
          make_compiler());
      if (auto* error = std::get_if<std::string>(made.get())) {
        logger.error("--engine jit: " + *error);
        return 1;
      }
      make_compiler = [made] { return std::move(*made); };
    }
    if (make_compiler) {
      tiering =
          std::make_unique<Tiering>(std::move(make_compiler), TieringSettings{},
                                    [&logger](const std::string& error) { logger.warn(error); });
    }
  }

  // Declared before the registry, so it outlives every imposter that may report a recording.
  std::unique_ptr<DatadirSync> datadir;
  ServingOptions serving;
  serving.mock = options.mock;
  serving.debug = options.debug;
  serving.seed = options.seed;
  serving.keep_alive = options.keep_alive || !options.mountebank_framing;
  serving.filter = ClientFilter(options.local_only, options.ip_whitelist);
  serving.compiled = setup.compiled;
  serving.tiering = tiering.get();
  serving.post_to_control = [&server](std::function<void()> task) {
    boost::asio::post(server.control_context(), std::move(task));
  };
  serving.behaviors = std::make_shared<behaviors::Services>();
  serving.stubs_recorded = [&datadir, &logger](const Imposter& imposter) {
    if (!datadir) return;
    if (auto error = datadir->changed(imposter)) {
      logger.error("cannot save the proxy recording of imposter " +
                   std::to_string(imposter.port()) + " to --datadir: " + *error);
    }
  };
  serving.logger = &logger;
  serving.scripts = scripts.get();
  serving.events = std::make_shared<events::EventBus>(setup.version);
  http::Limits imposter_limits;
  imposter_limits.max_body_bytes = options.max_imposter_body;
  imposter_limits.tls_handshake_timeout =
      std::chrono::milliseconds(static_cast<int64_t>(options.tls_handshake_timeout_ms));
  const auto ms = [](size_t value) {
    return std::chrono::milliseconds(static_cast<int64_t>(value));
  };
  imposter_limits.headers_timeout = ms(options.headers_timeout_ms);
  imposter_limits.request_timeout = ms(options.request_timeout_ms);
  imposter_limits.keep_alive_timeout = ms(options.keep_alive_timeout_ms);
  imposter_limits.connect_tunnels_to_self = true;
  imposter_limits.http2 = !options.disable_http2;
  if (options.max_connections > 0) {
    imposter_limits.connections = std::make_shared<http::ConnectionBudget>(options.max_connections);
  }
  // --metricsPort: the series the listeners and imposters count (docs/metrics.md). Without it
  // nothing is counted for it.
  std::shared_ptr<metrics::RiftMetrics> rift_metrics;
  if (options.metrics_port >= 0) {
    rift_metrics = std::make_shared<metrics::RiftMetrics>(threads);
    serving.metrics = rift_metrics;
    imposter_limits.accepts = rift_metrics->imposter_accepts;
    imposter_limits.answers = rift_metrics->answers;
  }
  Registry registry(server, serving, imposter_limits, options.host, options.port);
  AdminApi admin(registry, options, logger, tiering.get(), serving.events);
  front_door::FrontDoor front_door(registry);
  admin.route_with(&front_door);
  // Declared after the registry: the proxy's listener is closed before the server stops.
  std::unique_ptr<intercept::Intercept> intercept_proxy;
  admin.intercept_in(&intercept_proxy);

  const ClientFilter admin_filter = serving.filter;
  auto admin_handler = std::make_shared<const http::Handler>(
      [&admin, admin_filter](http::Message&& message, http::Respond respond) {
        if (!admin_filter.allows(message.remote_address)) {
          http::Reply reply;
          reply.reset = true;
          respond(std::move(reply));
          return;
        }
        admin.handle(std::move(message), std::move(respond));
      });
  // Imposters from --datadir, then --configfile, exist before the admin port answers, so a
  // client that waits for GET / never sees a half-loaded server. The registry keeps the admin
  // port for itself.
  if (options.datadir && options.frozen) {
    logger.warn("--datadir is ignored: a frozen mock serves the imposters compiled into it");
  } else if (options.datadir) {
    datadir = std::make_unique<DatadirSync>(DatadirStore(*options.datadir));
    auto loaded = datadir->store().load([&logger](const std::string& line) { logger.warn(line); });
    if (auto* error = std::get_if<std::string>(&loaded)) {
      logger.error("Cannot load --datadir: " + *error);
      return 1;
    }
    admin.persist_to(datadir.get());
    for (const auto& stored : std::get<std::vector<StoredImposter>>(loaded)) {
      const auto protocol = stored.document.find("protocol");
      const bool named = protocol != stored.document.end() && protocol->is_string();
      logger.info("Loading " + (named ? protocol->get<std::string>() : "?") + ":" +
                  std::to_string(stored.port) + " from datadir");
      auto failure = server.call_on_control([&] { return admin.restore(stored.document); });
      if (failure) {
        logger.error("Cannot load " + stored.file.string() + ": " + failure->dump());
        return 1;
      }
    }
  }
  std::optional<ir::Json> imposters = setup.imposters;
  std::string source = setup.source;
  std::optional<ir::Json> intercept_block;
  std::optional<ir::Json> front_door_tls;
  if (!imposters && options.configfile) {
    auto loaded = frontends::load_config_document(*options.configfile, {options.no_parse});
    if (auto* error = std::get_if<frontends::ConfigError>(&loaded)) {
      logger.error(error->to_string());
      return 1;
    }
    auto& document = std::get<frontends::ConfigDocument>(loaded);
    imposters = ir::Json(std::move(document.imposters));
    source = *options.configfile;
    if (document.routes) {
      // A table the contract refuses stops start-up: a half-routed front door is nobody's design.
      if (auto error = front_door.set_routes(*document.routes)) {
        logger.error("Cannot load " + source + ": routes: " + *error);
        return 1;
      }
    }
    intercept_block = std::move(document.intercept);
    front_door_tls = std::move(document.front_door_tls);
  }
  if (imposters) {
    auto failure = server.call_on_control([&] { return admin.replace_all(*imposters); });
    if (failure) {
      logger.error("Cannot load " + source + ": " + failure->dump());
      return 1;
    }
  }
  for (const char* document : setup.imposter_documents) {
    auto failure = server.call_on_control([&] { return admin.restore(ir::Json::parse(document)); });
    if (failure) {
      logger.error("Cannot load " + source + ": " + failure->dump());
      return 1;
    }
  }

  // Like the imposters, the front door and the proxy a client may wait for are up before the
  // admin port answers.
  if (!start_front_door(options, front_door_tls, front_door, server, imposter_limits, logger)) {
    return 1;
  }
  if (!start_intercept(options, intercept_block, registry, server, logger, intercept_proxy)) {
    return 1;
  }

  http::Limits admin_limits = imposter_limits;  // the same timeouts
  admin_limits.max_body_bytes = options.max_admin_body;
  admin_limits.connections = nullptr;  // the admin port stays reachable at --maxConnections
  admin_limits.connect_tunnels_to_self = false;
  admin_limits.http2 = false;
  admin_limits.answers = nullptr;  // rift_requests_total counts imposters' answers only
  if (rift_metrics) admin_limits.accepts = rift_metrics->admin_accepts;
  auto bound =
      server.listen(options.host, static_cast<uint16_t>(options.port), admin_handler, admin_limits,
                    /*on_control=*/true);
  if (auto* error = std::get_if<std::string>(&bound)) {
    logger.error("Cannot listen on port " + std::to_string(options.port) + ": " + *error);
    return 1;
  }

  if (rift_metrics) {
    http::Limits metrics_limits = admin_limits;
    metrics_limits.max_body_bytes = 64 * 1024;  // a scrape has no body
    metrics_limits.accepts = rift_metrics->metrics_accepts;
    const Tiering* jit = tiering.get();
    // Scrapes run on the control thread, where the registry may be read.
    auto handler = metrics_port_handler([rift_metrics, jit, events = serving.events, &registry] {
      std::map<std::string, uint64_t> flows;
      for (const auto& imposter : registry.list()) {
        const auto& store = imposter->flow_store();
        if (!store) continue;
        if (auto active = store->active_flows()) flows[std::string(store->backend())] += *active;
      }
      std::string text = rift_metrics->render(flows);
      if (jit) text += render_tiering_metrics(jit->metrics());
      if (events) text += events->render_metrics();
      return text;
    });
    auto metrics_bound = server.listen(options.host, static_cast<uint16_t>(options.metrics_port),
                                       handler, metrics_limits, /*on_control=*/true);
    if (auto* error = std::get_if<std::string>(&metrics_bound)) {
      logger.error("Cannot listen on metrics port " + std::to_string(options.metrics_port) + ": " +
                   *error);
      return 1;
    }
    logger.info("Metrics available at http://" +
                (options.host.empty() ? std::string("localhost") : options.host) + ":" +
                std::to_string(std::get<uint16_t>(metrics_bound)) + "/metrics");
  }

  {
    std::ofstream pidfile(options.pidfile);
    pidfile << getpid();
  }
  logger.info(setup.name + " v" + setup.version +
              " now taking orders - point your browser to http://localhost:" +
              std::to_string(options.port) + "/ for help");

  int received = 0;
  sigwait(&signals, &received);
  logger.info("Adios - see you soon?");
  std::error_code ignored;
  std::filesystem::remove(options.pidfile, ignored);
  server.stop();
  serving.behaviors->shutdown();
  return 0;
}

}  // namespace rift
