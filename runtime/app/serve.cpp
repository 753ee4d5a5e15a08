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
#include "runtime/app/engine.h"
#include "runtime/app/front_door_start.h"
#include "runtime/app/intercept_start.h"
#include "runtime/app/metrics_port.h"
#include "runtime/base/logger.h"
#include "runtime/front_door/front_door.h"
#include "runtime/http/server.h"
#include "runtime/imposter/registry.h"
#include "runtime/metrics/rift_metrics.h"

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
  EngineSetup engine_setup;
  engine_setup.version = setup.version;
  engine_setup.compiled = setup.compiled;
  engine_setup.jit = setup.jit;
  // Imposters from --datadir, then --configfile, exist before the admin port answers, so a
  // client that waits for GET / never sees a half-loaded server. The engine loads the first.
  auto opened = Engine::open(options, engine_setup, logger);
  if (auto* error = std::get_if<std::string>(&opened)) {
    logger.error(*error);
    return 1;
  }
  Engine& engine = *std::get<std::unique_ptr<Engine>>(opened);
  http::Server& server = engine.server();
  AdminApi& admin = engine.admin();
  front_door::FrontDoor& front_door = engine.front_door();
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
  if (!start_front_door(options, front_door_tls, front_door, server, engine.imposter_limits(),
                        logger)) {
    return 1;
  }
  if (!start_intercept(options, intercept_block, engine.registry(), server, logger,
                       engine.intercept_slot())) {
    return 1;
  }

  auto bound = engine.listen_admin(options.host, static_cast<uint16_t>(options.port));
  if (auto* error = std::get_if<std::string>(&bound)) {
    logger.error("Cannot listen on port " + std::to_string(options.port) + ": " + *error);
    return 1;
  }

  if (const auto& rift_metrics = engine.metrics()) {
    http::Limits metrics_limits = engine.admin_limits();
    metrics_limits.max_body_bytes = 64 * 1024;  // a scrape has no body
    metrics_limits.accepts = rift_metrics->metrics_accepts;
    const Tiering* jit = engine.tiering();
    Registry& registry = engine.registry();
    // Scrapes run on the control thread, where the registry may be read.
    auto handler = metrics_port_handler([rift_metrics, jit, events = engine.events(), &registry] {
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
  engine.stop();
  return 0;
}

}  // namespace rift
