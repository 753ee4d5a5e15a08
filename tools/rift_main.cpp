// `rift`: the server and its Mountebank-compatible command line (start|stop|restart|save|replay).
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include "frontends/config_file.h"
#include "runtime/admin_api.h"
#include "runtime/admin_client.h"
#include "runtime/http/server.h"
#include "runtime/logger.h"
#include "runtime/options.h"
#include "runtime/registry.h"

extern char** environ;

namespace {

constexpr const char* kVersion = "0.1.0";

std::string target_host(const rift::Options& options) {
  return options.host.empty() ? "localhost" : options.host;
}

int stop_server(const rift::Options& options) {
  std::ifstream in(options.pidfile);
  pid_t pid = 0;
  if (!(in >> pid) || pid <= 0) return 0;  // nothing running
  in.close();
  if (kill(pid, 0) != 0) {
    std::filesystem::remove(options.pidfile);
    return 0;
  }
  kill(pid, SIGTERM);
  for (int i = 0; i < 20 && std::filesystem::exists(options.pidfile); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  std::error_code ignored;
  std::filesystem::remove(options.pidfile, ignored);
  return 0;
}

std::optional<std::string> fetch_replayable(const rift::Options& options, bool remove_proxies) {
  std::string target = "/imposters?replayable=true";
  if (remove_proxies) target += "&removeProxies=true";
  auto reply =
      rift::admin_request(target_host(options), options.port, "GET", target, "", options.apikey);
  if (!reply) {
    std::cerr << "No mb process running on http://" << target_host(options) << ':' << options.port
              << '\n';
    return std::nullopt;
  }
  if (reply->status != 200) {
    std::cerr << reply->body << '\n';
    return std::nullopt;
  }
  return reply->body;
}

int save(const rift::Options& options) {
  auto body = fetch_replayable(options, options.remove_proxies);
  if (!body) return 1;
  auto json = rift::ir::Json::parse(*body, nullptr, false);
  std::ofstream out(options.savefile);
  out << (json.is_discarded() ? *body : json.dump(2));
  return out ? 0 : 1;
}

int replay(const rift::Options& options) {
  auto body = fetch_replayable(options, true);
  if (!body) return 1;
  auto reply = rift::admin_request(target_host(options), options.port, "PUT", "/imposters", *body,
                                   options.apikey);
  if (!reply || reply->status != 200) {
    std::cerr << (reply ? reply->body : "No mb process running") << '\n';
    return 1;
  }
  return 0;
}

int start(const rift::Options& options) {
  // Signals are taken synchronously by this thread, so block them before any thread starts.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  rift::Logger logger(*rift::Logger::parse_level(options.loglevel),
                      options.no_logfile ? "" : options.logfile);
  const unsigned threads =
      options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  rift::http::Server server(threads);

  rift::ServingOptions serving;
  serving.mock = options.mock;
  serving.debug = options.debug;
  serving.keep_alive = options.keep_alive;
  serving.filter = rift::ClientFilter(options.local_only, options.ip_whitelist);
  rift::http::Limits imposter_limits;
  imposter_limits.max_body_bytes = options.max_imposter_body;
  rift::Registry registry(server, serving, imposter_limits, options.host, options.port);
  rift::AdminApi admin(registry, options, logger);

  const rift::ClientFilter admin_filter = serving.filter;
  auto admin_handler = std::make_shared<const rift::http::Handler>(
      [&admin, admin_filter](rift::http::Message&& message, rift::http::Respond respond) {
        if (!admin_filter.allows(message.remote_address)) {
          rift::http::Reply reply;
          reply.reset = true;
          respond(std::move(reply));
          return;
        }
        admin.handle(std::move(message), std::move(respond));
      });
  // Imposters from --configfile exist before the admin port answers, so a client that waits
  // for GET / never sees a half-loaded server. The registry keeps the admin port for itself.
  if (options.configfile) {
    auto loaded = rift::frontends::load_config_file(*options.configfile, {options.no_parse});
    if (auto* error = std::get_if<rift::frontends::ConfigError>(&loaded)) {
      logger.error(error->to_string());
      return 1;
    }
    const auto& documents = std::get<std::vector<rift::ir::Json>>(loaded);
    auto failure =
        server.call_on_control([&] { return admin.replace_all(rift::ir::Json(documents)); });
    if (failure) {
      logger.error("Cannot load " + *options.configfile + ": " + failure->dump());
      return 1;
    }
  }

  rift::http::Limits admin_limits;
  admin_limits.max_body_bytes = options.max_admin_body;
  auto bound =
      server.listen(options.host, static_cast<uint16_t>(options.port), admin_handler, admin_limits,
                    /*on_control=*/true);
  if (auto* error = std::get_if<std::string>(&bound)) {
    logger.error("Cannot listen on port " + std::to_string(options.port) + ": " + *error);
    return 1;
  }

  {
    std::ofstream pidfile(options.pidfile);
    pidfile << getpid();
  }
  logger.info(std::string("rift v") + kVersion +
              " now taking orders - point your browser to http://localhost:" +
              std::to_string(options.port) + "/ for help");

  int received = 0;
  sigwait(&signals, &received);
  logger.info("Adios - see you soon?");
  std::error_code ignored;
  std::filesystem::remove(options.pidfile, ignored);
  server.stop();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  auto parsed = rift::parse_options(args, environ);
  if (auto* error = std::get_if<std::string>(&parsed)) {
    std::cerr << *error << "\n\n" << rift::usage_text();
    return 1;
  }
  const rift::Options& options = std::get<rift::Options>(parsed);
  if (options.show_version) {
    std::cout << kVersion << '\n';
    return 0;
  }
  if (options.show_help) {
    std::cout << rift::usage_text();
    return 0;
  }
  if (options.command == "stop") return stop_server(options);
  if (options.command == "save") return save(options);
  if (options.command == "replay") return replay(options);
  if (options.command == "restart") stop_server(options);
  return start(options);
}
