// librift's exports (embed/include/rift.h): argument checks, JSON in and out, and a catch at
// every entry. What an engine is and does is runtime/app/engine.h's; nothing is assembled here.
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <new>
#include <shared_mutex>
#include <string>
#include <variant>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

#include "compiler/ir.h"
#include "rift.h"
#include "runtime/app/engine.h"
#include "runtime/options/thread_limit.h"

// librift-jit is this file built with RIFT_EMBED_JIT and linked with the JIT tier: the same
// exports, plus "tier": "jit" (and "auto" compiling in the background).
#if defined(RIFT_EMBED_JIT)
#include "codegen/jit/jit_compiler.h"
#define RIFT_TIERS "[\"interpreter\",\"jit\"]"
#define RIFT_LIBRARY_NAME "librift-jit"
#else
#define RIFT_TIERS "[\"interpreter\"]"
#define RIFT_LIBRARY_NAME "librift"
#endif

// The handle outlives its engine: rift_engine_close frees the engine and keeps this small
// record, marked closed, for good, so a call that races the close, or comes after it, or a
// second close, finds `closed` and answers RIFT_ERR_STATE instead of reading freed memory.
// Calls hold `gate` shared for their whole length; close takes it alone, so it waits for the
// calls already inside (the drain) while new ones are turned away by `closed`.
struct rift_engine {
  std::atomic<bool> closed{false};
  std::shared_mutex gate;
  std::unique_ptr<rift::Logger> logger;  // outlives the engine
  std::unique_ptr<rift::Engine> engine;
  std::mutex admin_mutex;
  bool admin_served = false;
};

namespace {

// A carrier failure: the status it returns and the message for out_error.
struct Failure {
  int32_t code;
  std::string message;
};

char* copy_out(const std::string& text) {
  char* out = static_cast<char*>(std::malloc(text.size() + 1));
  if (out == nullptr) throw std::bad_alloc();
  std::memcpy(out, text.data(), text.size());
  out[text.size()] = '\0';
  return out;
}

int32_t fail(char** out_error, int32_t code, const std::string& message) {
  if (out_error != nullptr) {
    *out_error = nullptr;
    try {
      rift::ir::Json error{{"code", code}, {"name", rift_status_name(code)}, {"message", message}};
      *out_error = copy_out(error.dump());
    } catch (...) {
      *out_error = nullptr;
    }
  }
  return code;
}

// Runs `body` (which returns a status or throws a Failure), mapping every exception to a status.
template <typename Body>
int32_t guarded(char** out_error, Body&& body) noexcept {
  if (out_error != nullptr) *out_error = nullptr;
  try {
    return body();
  } catch (const Failure& failure) {
    return fail(out_error, failure.code, failure.message);
  } catch (const std::bad_alloc&) {
    return fail(out_error, RIFT_ERR_NO_MEMORY, "out of memory");
  } catch (const std::exception& error) {
    return fail(out_error, RIFT_ERR_INTERNAL, error.what());
  } catch (...) {
    return fail(out_error, RIFT_ERR_INTERNAL, "unknown exception");
  }
}

// A call's hold on an open engine: shared with the other calls, excluding close.
class Lease {
 public:
  explicit Lease(rift_engine* handle) {
    if (handle == nullptr) throw Failure{RIFT_ERR_ARGUMENT, "engine is NULL"};
    if (handle->closed.load(std::memory_order_acquire)) throw closed();
    lock_ = std::shared_lock(handle->gate);
    if (handle->engine == nullptr) throw closed();
    engine_ = handle->engine.get();
  }
  rift::Engine& engine() const { return *engine_; }

 private:
  static Failure closed() { return Failure{RIFT_ERR_STATE, "the engine is closed"}; }
  std::shared_lock<std::shared_mutex> lock_;
  rift::Engine* engine_ = nullptr;
};

rift::ir::Json parse_object(const char* text, const char* what) {
  if (text == nullptr || *text == '\0') return rift::ir::Json::object();
  auto parsed = rift::ir::Json::parse(text, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    throw Failure{RIFT_ERR_ARGUMENT, std::string(what) + " is not a JSON object"};
  }
  return parsed;
}

std::string string_of(const rift::ir::Json& value, const std::string& key) {
  if (!value.is_string()) throw Failure{RIFT_ERR_ARGUMENT, key + " must be a string"};
  return value.get<std::string>();
}

// A path of the options, relative ones anchored at `workdir` when it is given.
std::string anchored(const std::string& path, const std::optional<std::string>& workdir) {
  if (!workdir || std::filesystem::path(path).is_absolute()) return path;
  return (std::filesystem::path(*workdir) / path).string();
}

// The engine's Options from rift_engine_open's JSON (rift.h lists the keys).
rift::Options engine_options(const rift::ir::Json& json, std::string& log_file, bool& console) {
  rift::Options options;
  options.port = 0;  // no admin port until rift_serve_admin
  options.host = "127.0.0.1";
  options.engine = "auto";
  options.no_logfile = true;
  options.pidfile = "";
  std::optional<std::string> workdir;
  if (auto found = json.find("workdir"); found != json.end() && !found->is_null()) {
    workdir = string_of(*found, "workdir");
  }
  for (const auto& [key, value] : json.items()) {
    if (key == "threads") {
      if (!value.is_number_unsigned() || value.get<uint64_t>() > rift::kMaxThreads) {
        throw Failure{RIFT_ERR_ARGUMENT,
                      "threads must be 0 (one per core) to " + std::to_string(rift::kMaxThreads)};
      }
      options.threads = value.get<unsigned>();
    } else if (key == "tier") {
      const std::string tier = string_of(value, key);
      if (tier == "interpreter") {
        options.engine = "interp";
      } else if (tier == "auto") {
        options.engine = "auto";
      } else if (tier == "jit") {
#if defined(RIFT_EMBED_JIT)
        options.engine = "jit";
#else
        throw Failure{RIFT_ERR_UNSUPPORTED,
                      "tier \"jit\": this librift has no JIT (librift-jit has)"};
#endif
      } else {
        throw Failure{RIFT_ERR_ARGUMENT, "tier must be \"interpreter\", \"jit\" or \"auto\""};
      }
    } else if (key == "allowInjection") {
      if (!value.is_boolean()) throw Failure{RIFT_ERR_ARGUMENT, "allowInjection must be a boolean"};
      options.allow_injection = value.get<bool>();
    } else if (key == "host") {
      options.host = string_of(value, key);
    } else if (key == "workdir") {
      continue;
    } else if (key == "datadir") {
      if (!value.is_null()) options.datadir = anchored(string_of(value, key), workdir);
    } else if (key == "log") {
      if (!value.is_object()) throw Failure{RIFT_ERR_ARGUMENT, "log must be an object"};
      for (const auto& [name, setting] : value.items()) {
        if (name == "level") {
          options.loglevel = string_of(setting, "log.level");
          if (!rift::Logger::parse_level(options.loglevel)) {
            throw Failure{RIFT_ERR_ARGUMENT, "log.level must be debug, info, warn or error"};
          }
        } else if (name == "file") {
          if (!setting.is_null()) log_file = anchored(string_of(setting, "log.file"), workdir);
        } else if (name == "console") {
          if (!setting.is_boolean()) throw Failure{RIFT_ERR_ARGUMENT, "log.console: a boolean"};
          console = setting.get<bool>();
        } else {
          throw Failure{RIFT_ERR_ARGUMENT, "unknown option log." + name};
        }
      }
    } else {
      throw Failure{RIFT_ERR_ARGUMENT, "unknown option " + key};
    }
  }
  if (!log_file.empty()) {
    options.no_logfile = false;
    options.logfile = log_file;
  }
  return options;
}

rift::EngineSetup engine_setup() {
  rift::EngineSetup setup{RIFT_VERSION, {}, {}};
#if defined(RIFT_EMBED_JIT)
  setup.jit = [] { return rift::jit::make_tier_compiler(); };
#endif
  return setup;
}

// headers_json: an object of strings, or an array of [name, value] pairs.
rift::KeyValues request_headers(const char* text) {
  rift::KeyValues headers;
  if (text == nullptr || *text == '\0') return headers;
  auto parsed = rift::ir::Json::parse(text, nullptr, false);
  const auto refuse = [] {
    return Failure{RIFT_ERR_ARGUMENT,
                   "headers_json must be an object of strings or an array of [name, value]"};
  };
  if (parsed.is_object()) {
    for (const auto& [name, value] : parsed.items()) {
      if (!value.is_string()) throw refuse();
      headers.emplace_back(name, value.get<std::string>());
    }
  } else if (parsed.is_array()) {
    for (const auto& pair : parsed) {
      if (!pair.is_array() || pair.size() != 2 || !pair[0].is_string() || !pair[1].is_string()) {
        throw refuse();
      }
      headers.emplace_back(pair[0].get<std::string>(), pair[1].get<std::string>());
    }
  } else {
    throw refuse();
  }
  return headers;
}

}  // namespace

extern "C" {

RIFT_API uint32_t rift_abi_version(void) noexcept {
  return RIFT_ABI_VERSION;
}

RIFT_API const char* rift_build_info(void) noexcept {
  return "{\"name\":\"" RIFT_LIBRARY_NAME "\",\"version\":\"" RIFT_VERSION
         "\",\"abi\":1,\"tiers\":" RIFT_TIERS
         ","
         "\"features\":[\"javascript\",\"https\",\"http2\",\"proxy\",\"gateway\",\"frontDoor\","
         "\"intercept\",\"datadir\",\"redis\",\"events\"]}";
}

RIFT_API int32_t rift_engine_open(const char* options_json, rift_engine** out_engine,
                                  char** out_error) noexcept {
  return guarded(out_error, [&]() -> int32_t {
    if (out_engine == nullptr) throw Failure{RIFT_ERR_ARGUMENT, "out_engine is NULL"};
    *out_engine = nullptr;
    const rift::ir::Json json = parse_object(options_json, "options_json");
    std::string log_file;
    bool console = false;
    const rift::Options options = engine_options(json, log_file, console);
    auto handle = std::make_unique<rift_engine>();
    handle->logger = std::make_unique<rift::Logger>(*rift::Logger::parse_level(options.loglevel),
                                                    log_file, console);
    auto opened = rift::Engine::open(options, engine_setup(), *handle->logger);
    if (auto* error = std::get_if<std::string>(&opened)) throw Failure{RIFT_ERR_START, *error};
    handle->engine = std::get<std::unique_ptr<rift::Engine>>(std::move(opened));
    *out_engine = handle.release();
    return RIFT_OK;
  });
}

RIFT_API int32_t rift_engine_close(rift_engine* engine) noexcept {
  return guarded(nullptr, [&]() -> int32_t {
    if (engine == nullptr) return RIFT_OK;
    if (engine->closed.exchange(true, std::memory_order_acq_rel)) {
      throw Failure{RIFT_ERR_STATE, "the engine is closed already"};
    }
    std::unique_lock drained(engine->gate);
    if (engine->engine) engine->engine->stop();
    engine->engine.reset();
    engine->logger.reset();
#if defined(__SANITIZE_ADDRESS__)
    __lsan_ignore_object(engine);  // kept on purpose, see rift_engine
#endif
    return RIFT_OK;
  });
}

RIFT_API int32_t rift_request(rift_engine* engine, const char* method, const char* target,
                              const char* headers_json, const char* body, size_t body_len,
                              int32_t* out_status, char** out_body, size_t* out_body_len,
                              char** out_headers_json, char** out_error) noexcept {
  if (out_status != nullptr) *out_status = 0;
  if (out_body != nullptr) *out_body = nullptr;
  if (out_body_len != nullptr) *out_body_len = 0;
  if (out_headers_json != nullptr) *out_headers_json = nullptr;
  return guarded(out_error, [&]() -> int32_t {
    const Lease lease(engine);
    if (method == nullptr || *method == '\0') throw Failure{RIFT_ERR_ARGUMENT, "method is empty"};
    if (target == nullptr || *target != '/') {
      throw Failure{RIFT_ERR_ARGUMENT, "target must be a path starting with '/'"};
    }
    if (body == nullptr && body_len != 0) throw Failure{RIFT_ERR_ARGUMENT, "body is NULL"};
    rift::AdminRequest request;
    request.method = method;
    for (char& c : request.method) {
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    }
    request.target = target;
    if (body_len != 0) request.body.assign(body, body_len);
    request.headers = request_headers(headers_json);
    auto answered = lease.engine().request(std::move(request));
    if (auto* error = std::get_if<std::string>(&answered)) {
      throw Failure{RIFT_ERR_NO_ANSWER, *error};
    }
    auto& reply = std::get<rift::AdminReply>(answered);
    char* body_out = nullptr;
    char* headers_out = nullptr;
    try {
      if (out_body != nullptr) body_out = copy_out(reply.body);
      if (out_headers_json != nullptr) {
        rift::ir::Json pairs = rift::ir::Json::array();
        for (const auto& [name, value] : reply.headers) pairs.push_back({name, value});
        headers_out =
            copy_out(pairs.dump(-1, ' ', false, rift::ir::Json::error_handler_t::replace));
      }
    } catch (...) {
      std::free(body_out);
      std::free(headers_out);
      throw;
    }
    if (out_status != nullptr) *out_status = reply.status;
    if (out_body != nullptr) *out_body = body_out;
    if (out_body_len != nullptr) *out_body_len = reply.body.size();
    if (out_headers_json != nullptr) *out_headers_json = headers_out;
    return RIFT_OK;
  });
}

RIFT_API int32_t rift_serve_admin(rift_engine* engine, const char* options_json, char** out_json,
                                  char** out_error) noexcept {
  if (out_json != nullptr) *out_json = nullptr;
  return guarded(out_error, [&]() -> int32_t {
    const Lease lease(engine);
    const rift::ir::Json json = parse_object(options_json, "options_json");
    std::string host = "127.0.0.1";
    int port = 0;
    for (const auto& [key, value] : json.items()) {
      if (key == "host") {
        host = string_of(value, key);
      } else if (key == "port") {
        if (!value.is_number_unsigned() || value.get<uint64_t>() > 65535) {
          throw Failure{RIFT_ERR_ARGUMENT, "port must be 0..65535"};
        }
        port = value.get<int>();
      } else {
        throw Failure{RIFT_ERR_ARGUMENT, "unknown option " + key};
      }
    }
    std::lock_guard lock(engine->admin_mutex);
    if (engine->admin_served) throw Failure{RIFT_ERR_STATE, "the admin API is served already"};
    auto bound = lease.engine().listen_admin(host, static_cast<uint16_t>(port));
    if (auto* error = std::get_if<std::string>(&bound)) {
      throw Failure{RIFT_ERR_START,
                    "cannot listen on " + host + ":" + std::to_string(port) + ": " + *error};
    }
    engine->admin_served = true;
    const uint16_t chosen = std::get<uint16_t>(bound);
    const std::string shown = host.find(':') != std::string::npos ? "[" + host + "]" : host;
    rift::ir::Json answer{{"adminPort", chosen},
                          {"adminUrl", "http://" + shown + ":" + std::to_string(chosen)}};
    if (out_json != nullptr) *out_json = copy_out(answer.dump());
    return RIFT_OK;
  });
}

RIFT_API void rift_free(void* pointer) noexcept {
  std::free(pointer);
}

RIFT_API const char* rift_status_name(int32_t status) noexcept {
  switch (status) {
    case RIFT_OK:
      return "RIFT_OK";
    case RIFT_ERR_ARGUMENT:
      return "RIFT_ERR_ARGUMENT";
    case RIFT_ERR_START:
      return "RIFT_ERR_START";
    case RIFT_ERR_STATE:
      return "RIFT_ERR_STATE";
    case RIFT_ERR_UNSUPPORTED:
      return "RIFT_ERR_UNSUPPORTED";
    case RIFT_ERR_NO_ANSWER:
      return "RIFT_ERR_NO_ANSWER";
    case RIFT_ERR_NO_MEMORY:
      return "RIFT_ERR_NO_MEMORY";
    case RIFT_ERR_INTERNAL:
      return "RIFT_ERR_INTERNAL";
    default:
      return "RIFT_ERR_UNKNOWN";
  }
}

}  // extern "C"
