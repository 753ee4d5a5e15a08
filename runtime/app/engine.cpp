#include "runtime/app/engine.h"

#include <chrono>
#include <cstdlib>
#include <future>
#include <thread>

#include "compiler/ascii.h"
#include "runtime/datadir/sync.h"
#include "runtime/script/engine.h"

namespace rift {
namespace {

// The imposter's serialized reply read back: status line, headers, body (de-chunked when it is
// chunked, cut at Content-Length otherwise). A de-chunked reply says so in its headers: the
// caller gets the whole body, so Transfer-Encoding gives way to its Content-Length.
std::optional<AdminReply> parse_wire_reply(const std::string& bytes) {
  const size_t head_end = bytes.find("\r\n\r\n");
  if (head_end == std::string::npos) return std::nullopt;
  const size_t line_end = bytes.find("\r\n");
  const std::string_view status_line(bytes.data(), line_end);
  const size_t space = status_line.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  AdminReply reply;
  reply.status = std::atoi(std::string(status_line.substr(space + 1, 3)).c_str());
  std::optional<size_t> length;
  bool chunked = false;
  for (size_t at = line_end + 2; at < head_end;) {
    size_t end = bytes.find("\r\n", at);
    if (end == std::string::npos || end > head_end) end = head_end;
    const std::string_view line(bytes.data() + at, end - at);
    at = end + 2;
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string name(line.substr(0, colon));
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) {
      value.remove_prefix(1);
    }
    const std::string lower = ascii::lower(name);
    if (lower == "content-length") length = std::strtoull(std::string(value).c_str(), nullptr, 10);
    if (lower == "transfer-encoding" &&
        ascii::lower(std::string(value)).find("chunked") != std::string::npos) {
      chunked = true;
    }
    if (lower == "content-type") reply.content_type = std::string(value);
    if (lower == "transfer-encoding" && chunked) continue;
    reply.headers.emplace_back(std::move(name), std::string(value));
  }
  const std::string_view rest = std::string_view(bytes).substr(head_end + 4);
  if (chunked) {
    for (size_t at = 0; at < rest.size();) {
      const size_t end = rest.find("\r\n", at);
      if (end == std::string_view::npos) break;
      const size_t size =
          std::strtoull(std::string(rest.substr(at, end - at)).c_str(), nullptr, 16);
      if (size == 0) break;
      reply.body.append(rest.substr(end + 2, size));
      at = end + 2 + size + 2;
    }
    reply.headers.emplace_back("Content-Length", std::to_string(reply.body.size()));
  } else {
    reply.body = std::string(length ? rest.substr(0, *length) : rest);
  }
  return reply;
}

bool is_gateway(std::string_view target) {
  return target.starts_with("/__rift/");
}

}  // namespace

Engine::Engine(OpenKey, const Options& options, Logger& logger)
    : options_(options), logger_(logger) {
  const unsigned threads =
      options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  server_ = std::make_unique<http::Server>(threads);
}

std::variant<std::unique_ptr<Engine>, std::string> Engine::open(const Options& options,
                                                                const EngineSetup& setup,
                                                                Logger& logger) {
  auto engine = std::make_unique<Engine>(OpenKey(), options, logger);
  if (auto error = engine->assemble(setup)) return *std::move(error);
  return engine;
}

std::optional<std::string> Engine::assemble(const EngineSetup& setup) {
  const Options& options = options_;
  if (options.allow_injection) {
    script::EngineSettings settings;
    settings.time_limit =
        std::chrono::milliseconds(static_cast<int64_t>(options.injection_timeout_ms));
    settings.log = [this](LogLevel level, const std::string& message) {
      logger_.log(level, message);
    };
    scripts_ = std::make_unique<script::Engine>(std::move(settings));
  }

  if (!options.frozen && options.engine != "interp") {
    Tiering::CompilerFactory make_compiler = setup.jit;
    if (!make_compiler && options.engine == "jit") {
      return "--engine jit: this build of rift has no JIT (LLVM and Clang 19 were not found)";
    }
    if (make_compiler && options.engine == "jit") {
      // Asked for by name: fail now, not in the background.
      auto made = std::make_shared<std::variant<std::unique_ptr<TierCompiler>, std::string>>(
          make_compiler());
      if (auto* error = std::get_if<std::string>(made.get())) return "--engine jit: " + *error;
      make_compiler = [made] { return std::move(*made); };
    }
    if (make_compiler) {
      tiering_ =
          std::make_unique<Tiering>(std::move(make_compiler), TieringSettings{},
                                    [this](const std::string& error) { logger_.warn(error); });
    }
  }

  serving_.mock = options.mock;
  serving_.debug = options.debug;
  serving_.seed = options.seed;
  serving_.keep_alive = options.keep_alive || !options.mountebank_framing;
  serving_.filter = ClientFilter(options.local_only, options.ip_whitelist);
  serving_.compiled = setup.compiled;
  serving_.tiering = tiering_.get();
  http::Server* server = server_.get();
  serving_.post_to_control = [server](std::function<void()> task) {
    boost::asio::post(server->control_context(), std::move(task));
  };
  serving_.behaviors = std::make_shared<behaviors::Services>();
  serving_.stubs_recorded = [this](const Imposter& imposter) {
    if (!datadir_) return;
    if (auto error = datadir_->changed(imposter)) {
      logger_.error("cannot save the proxy recording of imposter " +
                    std::to_string(imposter.port()) + " to --datadir: " + *error);
    }
  };
  serving_.logger = &logger_;
  serving_.scripts = scripts_.get();
  serving_.events = std::make_shared<events::EventBus>(setup.version);
  imposter_limits_.max_body_bytes = options.max_imposter_body;
  imposter_limits_.tls_handshake_timeout =
      std::chrono::milliseconds(static_cast<int64_t>(options.tls_handshake_timeout_ms));
  const auto ms = [](size_t value) {
    return std::chrono::milliseconds(static_cast<int64_t>(value));
  };
  imposter_limits_.headers_timeout = ms(options.headers_timeout_ms);
  imposter_limits_.request_timeout = ms(options.request_timeout_ms);
  imposter_limits_.keep_alive_timeout = ms(options.keep_alive_timeout_ms);
  imposter_limits_.connect_tunnels_to_self = true;
  imposter_limits_.http2 = !options.disable_http2;
  if (options.max_connections > 0) {
    imposter_limits_.connections =
        std::make_shared<http::ConnectionBudget>(options.max_connections);
  }
  // --metricsPort: the series the listeners and imposters count (docs/metrics.md). Without it
  // nothing is counted for it.
  if (options.metrics_port >= 0) {
    metrics_ = std::make_shared<metrics::RiftMetrics>(server_->worker_count());
    serving_.metrics = metrics_;
    imposter_limits_.accepts = metrics_->imposter_accepts;
    imposter_limits_.answers = metrics_->answers;
  }
  // The registry keeps the admin port for itself.
  registry_ =
      std::make_unique<Registry>(*server_, serving_, imposter_limits_, options.host, options.port);
  admin_ =
      std::make_unique<AdminApi>(*registry_, options_, logger_, tiering_.get(), serving_.events);
  front_door_ = std::make_unique<front_door::FrontDoor>(*registry_);
  admin_->route_with(front_door_.get());
  admin_->intercept_in(&intercept_);

  // Imposters from --datadir exist before the admin port answers, so a client that waits for
  // GET / never sees a half-loaded server.
  if (options.datadir && options.frozen) {
    logger_.warn("--datadir is ignored: a frozen mock serves the imposters compiled into it");
  } else if (options.datadir) {
    datadir_ = std::make_unique<DatadirSync>(DatadirStore(*options.datadir));
    auto loaded = datadir_->store().load([this](const std::string& line) { logger_.warn(line); });
    if (auto* error = std::get_if<std::string>(&loaded)) return "Cannot load --datadir: " + *error;
    admin_->persist_to(datadir_.get());
    for (const auto& stored : std::get<std::vector<StoredImposter>>(loaded)) {
      const auto protocol = stored.document.find("protocol");
      const bool named = protocol != stored.document.end() && protocol->is_string();
      logger_.info("Loading " + (named ? protocol->get<std::string>() : "?") + ":" +
                   std::to_string(stored.port) + " from datadir");
      auto failure = server_->call_on_control([&] { return admin_->restore(stored.document); });
      if (failure) return "Cannot load " + stored.file.string() + ": " + failure->dump();
    }
  }
  return std::nullopt;
}

Engine::~Engine() {
  stop();
}

void Engine::stop() {
  {
    std::lock_guard lock(admin_mutex_);
    if (stopped_) return;
    stopped_ = true;
  }
  server_->stop();
  if (serving_.behaviors) serving_.behaviors->shutdown();
}

http::Limits Engine::admin_limits() const {
  http::Limits limits = imposter_limits_;  // the same timeouts
  limits.max_body_bytes = options_.max_admin_body;
  limits.connections = nullptr;  // the admin port stays reachable at --maxConnections
  limits.connect_tunnels_to_self = false;
  limits.http2 = false;
  limits.answers = nullptr;  // rift_requests_total counts imposters' answers only
  limits.accepts = metrics_ ? metrics_->admin_accepts : nullptr;
  return limits;
}

std::variant<uint16_t, std::string> Engine::listen_admin(const std::string& host, uint16_t port) {
  AdminApi* admin = admin_.get();
  const ClientFilter filter = serving_.filter;
  auto handler = std::make_shared<const http::Handler>(
      [admin, filter](http::Message&& message, http::Respond respond) {
        if (!filter.allows(message.remote_address)) {
          http::Reply reply;
          reply.reset = true;
          respond(std::move(reply));
          return;
        }
        admin->handle(std::move(message), std::move(respond));
      });
  auto bound = server_->listen(host, port, handler, admin_limits(), /*on_control=*/true);
  if (auto* chosen = std::get_if<uint16_t>(&bound)) {
    std::lock_guard lock(admin_mutex_);
    admin_port_ = *chosen;
  }
  return bound;
}

std::optional<uint16_t> Engine::admin_port() const {
  std::lock_guard lock(admin_mutex_);
  return admin_port_;
}

std::variant<AdminReply, std::string> Engine::request(AdminRequest request) {
  if (!find_ignoring_case(request.headers, "host")) {
    const auto port = admin_port();
    request.headers.emplace_back("Host", port ? "localhost:" + std::to_string(*port) : "localhost");
  }
  if (!is_gateway(request.target)) {
    AdminReply reply = server_->call_on_control([&] { return admin_->call(request); });
    if (!reply.content_type.empty()) reply.headers.emplace_back("Content-Type", reply.content_type);
    return reply;
  }
  // The gateway answers as an imposter does: through a Respond, maybe later, maybe on a worker.
  http::Message message;
  message.method = std::move(request.method);
  message.target = std::move(request.target);
  message.headers = std::move(request.headers);
  message.body = std::move(request.body);
  message.remote_address = "127.0.0.1";
  message.loop = &server_->control_context();
  auto promise = std::make_shared<std::promise<http::Reply>>();
  auto future = promise->get_future();
  http::Respond respond([promise](http::Reply reply) {
    reply.materialize();
    promise->set_value(std::move(reply));
  });
  server_->call_on_control([&] { admin_->handle(std::move(message), std::move(respond)); });
  http::Reply reply = future.get();
  if (reply.reset) return std::string("the imposter reset the connection");
  if (reply.stream) return std::string("a streamed reply cannot be answered in process");
  if (reply.delay.count() > 0) std::this_thread::sleep_for(reply.delay);
  auto parsed = parse_wire_reply(reply.bytes);
  if (!parsed) return std::string("the imposter's reply is not HTTP");
  return *std::move(parsed);
}

}  // namespace rift
