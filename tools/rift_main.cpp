// `rift`: the server and its Mountebank-compatible command line (start|stop|restart|save|replay).
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#ifdef RIFT_HAVE_JIT
#include "runtime/tiering/jit_module.h"
#endif
#include "runtime/app/admin_client.h"
#include "runtime/app/serve.h"
#include "runtime/options/options.h"

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
  rift::ServeSetup setup;
#ifdef RIFT_HAVE_JIT
  setup.jit = &rift::load_jit_module;
#endif
  return rift::serve(options, setup);
}
