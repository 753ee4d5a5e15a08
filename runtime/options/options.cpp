#include "runtime/options/options.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <map>
#include <sstream>

#include "compiler/ascii.h"

namespace rift {
namespace {

enum class Kind { kFlag, kValue };

struct Spec {
  const char* name;
  const char* alias;  // short form, or nullptr
  Kind kind;
};

constexpr Spec kSpecs[] = {
    {"port", "p", Kind::kValue},
    {"host", "h", Kind::kValue},
    {"configfile", nullptr, Kind::kValue},
    {"noParse", nullptr, Kind::kFlag},
    {"formatter", nullptr, Kind::kValue},
    {"datadir", nullptr, Kind::kValue},
    {"impostersRepository", nullptr, Kind::kValue},
    {"pidfile", nullptr, Kind::kValue},
    {"logfile", nullptr, Kind::kValue},
    {"nologfile", nullptr, Kind::kFlag},
    {"loglevel", nullptr, Kind::kValue},
    {"log", nullptr, Kind::kValue},
    {"allowInjection", "i", Kind::kFlag},
    {"localOnly", "l", Kind::kFlag},
    {"ipWhitelist", "w", Kind::kValue},
    {"origin", "o", Kind::kValue},
    {"apikey", nullptr, Kind::kValue},
    {"mock", "m", Kind::kFlag},
    {"debug", "d", Kind::kFlag},
    {"protofile", nullptr, Kind::kValue},
    {"rcfile", nullptr, Kind::kValue},
    {"savefile", nullptr, Kind::kValue},
    {"removeProxies", "r", Kind::kFlag},
    {"threads", nullptr, Kind::kValue},
    {"keepAlive", nullptr, Kind::kFlag},
    {"engine", nullptr, Kind::kValue},
    {"maxBodyBytes", nullptr, Kind::kValue},
    {"maxAdminBodyBytes", nullptr, Kind::kValue},
    {"injectionTimeout", nullptr, Kind::kValue},
    {"tlsHandshakeTimeout", nullptr, Kind::kValue},
    {"version", nullptr, Kind::kFlag},
    {"help", nullptr, Kind::kFlag},
};

const Spec* find_spec(std::string_view name) {
  for (const Spec& spec : kSpecs) {
    if (name == spec.name || (spec.alias && name == spec.alias)) return &spec;
  }
  return nullptr;
}

// "allowInjection" -> "MB_ALLOW_INJECTION"
std::string env_name(std::string_view option) {
  std::string out = "MB_";
  for (char c : option) {
    if (std::isupper(static_cast<unsigned char>(c))) out += '_';
    out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return out;
}

bool truthy_flag(const std::string& value) {
  const std::string lower = ascii::lower(value);
  return !(lower.empty() || lower == "false" || lower == "0" || lower == "no");
}

std::optional<std::string> apply(Options& options, const std::string& name,
                                 const std::string& value) {
  auto number = [&](auto& target, long long low, long long high) -> std::optional<std::string> {
    long long parsed = 0;
    auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), parsed);
    if (error != std::errc() || end != value.data() + value.size() || parsed < low ||
        parsed > high) {
      return "invalid value for --" + name + ": '" + value + "'";
    }
    target = static_cast<std::remove_reference_t<decltype(target)>>(parsed);
    return std::nullopt;
  };
  if (name == "port") return number(options.port, 1, 65535);
  if (name == "host")
    options.host = value;
  else if (name == "configfile")
    options.configfile = value;
  else if (name == "noParse")
    options.no_parse = truthy_flag(value);
  else if (name == "formatter")
    options.formatter = value;
  else if (name == "datadir")
    options.datadir = value;
  else if (name == "impostersRepository") {
    // Accepted for compatibility: Rift keeps imposters in memory.
  } else if (name == "pidfile")
    options.pidfile = value;
  else if (name == "logfile")
    options.logfile = value;
  else if (name == "nologfile")
    options.no_logfile = truthy_flag(value);
  else if (name == "loglevel") {
    if (value != "debug" && value != "info" && value != "warn" && value != "error") {
      return "invalid value for --loglevel: '" + value + "' (debug, info, warn or error)";
    }
    options.loglevel = value;
  } else if (name == "log") {
    // The JSON logging object; only its level is honoured for now.
    auto parsed = ir::Json::parse(value, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object())
      return "invalid value for --log: not a JSON object";
    if (parsed.contains("level") && parsed["level"].is_string()) options.loglevel = parsed["level"];
  } else if (name == "allowInjection")
    options.allow_injection = truthy_flag(value);
  else if (name == "localOnly")
    options.local_only = truthy_flag(value);
  else if (name == "ipWhitelist") {
    options.ip_whitelist.clear();
    std::stringstream entries(value);
    for (std::string entry; std::getline(entries, entry, '|');) {
      options.ip_whitelist.push_back(ascii::lower(entry));
    }
  } else if (name == "origin")
    options.origins.push_back(value);
  else if (name == "apikey")
    options.apikey = value;
  else if (name == "mock")
    options.mock = truthy_flag(value);
  else if (name == "debug")
    options.debug = truthy_flag(value);
  else if (name == "protofile")
    options.protofile = value;
  else if (name == "rcfile")
    options.rcfile = value;
  else if (name == "savefile")
    options.savefile = value;
  else if (name == "removeProxies")
    options.remove_proxies = truthy_flag(value);
  else if (name == "threads")
    return number(options.threads, 1, 1024);
  else if (name == "keepAlive")
    options.keep_alive = truthy_flag(value);
  else if (name == "engine") {
    if (value != "interp" && value != "jit" && value != "auto") {
      return "--engine must be interp, jit or auto, not '" + value + "'";
    }
    options.engine = value;
  } else if (name == "maxBodyBytes")
    return number(options.max_imposter_body, 1, 1ll << 40);
  else if (name == "maxAdminBodyBytes")
    return number(options.max_admin_body, 1, 1ll << 40);
  else if (name == "injectionTimeout")
    return number(options.injection_timeout_ms, 1, 1ll << 31);
  else if (name == "tlsHandshakeTimeout")
    return number(options.tls_handshake_timeout_ms, 1, 1ll << 31);
  else if (name == "version")
    options.show_version = truthy_flag(value);
  else if (name == "help")
    options.show_help = truthy_flag(value);
  return std::nullopt;
}

}  // namespace

std::variant<Options, std::string> parse_options(const std::vector<std::string>& args,
                                                 char** environment) {
  // Collect (name, value) from each source, lowest precedence first, then apply in that order.
  std::vector<std::pair<std::string, std::string>> settings;

  if (environment != nullptr) {
    std::map<std::string, std::string> env;
    for (char** entry = environment; *entry != nullptr; ++entry) {
      std::string_view text(*entry);
      auto equals = text.find('=');
      if (equals != std::string_view::npos) {
        env.emplace(std::string(text.substr(0, equals)), std::string(text.substr(equals + 1)));
      }
    }
    for (const Spec& spec : kSpecs) {
      auto it = env.find(env_name(spec.name));
      if (it != env.end()) settings.emplace_back(spec.name, it->second);
    }
  }

  std::vector<std::pair<std::string, std::string>> command_line;
  std::optional<std::string> command;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.rfind("-", 0) != 0) {
      if (command) return "Invalid command '" + arg + "'.";
      command = arg;
      continue;
    }
    std::string name = arg.substr(arg.rfind("--", 0) == 0 ? 2 : 1);
    std::optional<std::string> inline_value;
    if (auto equals = name.find('='); equals != std::string::npos) {
      inline_value = name.substr(equals + 1);
      name = name.substr(0, equals);
    }
    const Spec* spec = find_spec(name);
    if (spec == nullptr) return "Unknown option '" + arg + "'.";
    if (spec->kind == Kind::kFlag) {
      std::string value = inline_value.value_or("true");
      // Mountebank's parser also takes `--flag false`.
      if (!inline_value && i + 1 < args.size() &&
          (args[i + 1] == "true" || args[i + 1] == "false")) {
        value = args[++i];
      }
      command_line.emplace_back(spec->name, value);
    } else {
      if (!inline_value && i + 1 >= args.size()) return "Option --" + name + " needs a value.";
      command_line.emplace_back(spec->name, inline_value ? *inline_value : args[++i]);
    }
  }

  // The rcfile sits between the environment and the command line.
  std::optional<std::string> rcfile;
  for (const auto& [name, value] : command_line) {
    if (name == "rcfile") rcfile = value;
  }
  if (rcfile) {
    std::ifstream in(*rcfile);
    if (!in) return "Cannot read rcfile '" + *rcfile + "'.";
    std::stringstream text;
    text << in.rdbuf();
    auto parsed = ir::Json::parse(text.str(), nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object())
      return "rcfile '" + *rcfile + "' is not a JSON object.";
    for (const auto& [name, value] : parsed.items()) {
      const Spec* spec = find_spec(name);
      if (spec == nullptr) continue;
      settings.emplace_back(spec->name,
                            value.is_string() ? value.get<std::string>() : value.dump());
    }
  }
  settings.insert(settings.end(), command_line.begin(), command_line.end());

  Options options;
  for (const auto& [name, value] : settings) {
    if (auto error = apply(options, name, value)) return *error;
  }
  if (command) {
    static const char* kCommands[] = {"start", "stop", "restart", "save", "replay", "help"};
    if (std::find(std::begin(kCommands), std::end(kCommands), *command) == std::end(kCommands)) {
      return "Invalid command '" + *command + "'.";
    }
    options.command = *command;
  }
  if (options.command == "help") options.show_help = true;
  return options;
}

ir::Json Options::to_config_json() const {
  ir::Json out = ir::Json::object();
  out["port"] = port;
  if (!host.empty()) out["host"] = host;
  out["pidfile"] = pidfile;
  out["nologfile"] = no_logfile;
  out["logfile"] = logfile;
  out["loglevel"] = loglevel;
  out["allowInjection"] = allow_injection;
  out["localOnly"] = local_only;
  out["ipWhitelist"] = ip_whitelist;
  if (configfile) out["configfile"] = *configfile;
  out["noParse"] = no_parse;
  if (datadir) out["datadir"] = *datadir;
  if (mock) out["mock"] = true;
  out["debug"] = debug;
  out["origin"] = origins.empty() ? ir::Json(false) : ir::Json(origins);
  out["apikey"] = apikey ? ir::Json(*apikey) : ir::Json(nullptr);
  ir::Json log = ir::Json::object();
  log["level"] = loglevel;
  ir::Json transports = ir::Json::object();
  transports["console"] = {{"colorize", true}, {"format", "%level: %message"}};
  if (!no_logfile) transports["file"] = {{"path", logfile}, {"format", "json"}};
  log["transports"] = transports;
  out["log"] = log;
  return out;
}

std::string usage_text() {
  return R"(Usage: rift [command] [options]

Commands:
  start      Start the server (default)
  stop       Stop a running server (reads --pidfile)
  restart    Stop, then start
  save       Save the running server's imposters to --savefile
  replay     Switch a running server from recording to replaying proxies

Options (each also read from MB_<OPTION> in the environment, e.g. MB_PORT):
  -p, --port N             admin port (default 2525)
  -h, --host HOST          bind address (default: every interface)
  --configfile FILE        load imposters at start (JSON or YAML)
  --noParse                do not render the configfile as a template
  --datadir DIR            keep imposters in DIR/<port>/imposter.json: every change is saved
                           before it is acknowledged and reloaded at start
  --pidfile FILE           default mb.pid
  --logfile FILE           default mb.log
  --nologfile              log to the console only
  --loglevel LEVEL         debug, info, warn or error (default info)
  -i, --allowInjection     allow JavaScript and shell injection
  -l, --localOnly          accept only loopback connections
  -w, --ipWhitelist LIST   '|'-separated addresses allowed to connect (default *)
  --apikey KEY             require the x-api-key header on the admin API
  -m, --mock               record requests on every imposter
  -d, --debug              keep each stub's matches
  --rcfile FILE            JSON file of options
  --savefile FILE          for save (default mb.json)
  -r, --removeProxies      for save: drop proxy responses
  --threads N              worker threads (default: one per core)
  --keepAlive              keep connections open when a response sets no Connection header
                           (Mountebank closes them; off by default)
  --engine interp|jit|auto how stubs are matched: the interpreter only, or JIT-compiled in the
                           background after every change (auto: jit when this build and
                           machine can JIT; the default)
  --maxBodyBytes N         largest imposter request body (default 10 MiB)
  --maxAdminBodyBytes N    largest admin request body (default 64 MiB)
  --injectionTimeout MS    time limit of one injected JavaScript call, including waiting
                           for callback() (default 10000)
  --tlsHandshakeTimeout MS an https client that has not completed its TLS handshake by then
                           is disconnected (default 120000, as Node's)
  --version, --help
)";
}

}  // namespace rift
