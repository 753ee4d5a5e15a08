#include "runtime/options/options.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <map>
#include <sstream>
#include <type_traits>

#include "compiler/ascii.h"
#include "runtime/options/option_table.h"
#include "runtime/options/thread_limit.h"

namespace rift {
namespace {

// Readers of their own, for the rows whose value is more than the member's type says.

std::optional<std::string> set_ip_whitelist(Options& options, const std::string& value) {
  options.ip_whitelist.clear();
  std::stringstream entries(value);
  for (std::string entry; std::getline(entries, entry, '|');) {
    options.ip_whitelist.push_back(ascii::lower(entry));
  }
  return std::nullopt;
}

// A whole number in 0 .. 2^64-1, decimal.
std::optional<std::string> set_seed(Options& options, const std::string& value) {
  uint64_t seed = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), seed);
  if (value.empty() || error != std::errc() || end != value.data() + value.size()) {
    return "invalid value for --seed: '" + value + "' is not a whole number from 0 to 2^64-1";
  }
  options.seed = seed;
  return std::nullopt;
}

// Mountebank's logging object; only its level is honoured.
std::optional<std::string> set_log(Options& options, const std::string& value) {
  auto parsed = ir::Json::parse(value, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object())
    return "invalid value for --log: not a JSON object";
  if (parsed.contains("level") && parsed["level"].is_string()) options.loglevel = parsed["level"];
  return std::nullopt;
}

ir::Json log_config(const Options& options) {
  ir::Json log = ir::Json::object();
  log["level"] = options.loglevel;
  ir::Json transports = ir::Json::object();
  transports["console"] = {{"colorize", true}, {"format", "%level: %message"}};
  if (!options.no_logfile) transports["file"] = {{"path", options.logfile}, {"format", "json"}};
  log["transports"] = transports;
  return log;
}

constexpr std::string_view kLogLevels[] = {"debug", "info", "warn", "error"};
constexpr std::string_view kEngines[] = {"interp", "jit", "auto"};
constexpr char kIgnored[] = "accepted for compatibility with Mountebank, and ignored";

// One row per option. GET /config lists the rows it shows in this order (today's Mountebank
// order), --help lists every row in this order. A new option is a row here plus its Options
// member; option_table.h says what each field does.
constexpr OptionRow kOptionTable[] = {
    {.name = "port",
     .alias = "p",
     .member = &Options::port,
     .value_name = "N",
     .low = 1,
     .high = 65535,
     .in_config = InConfig::kAlways,
     .help = "admin port (for stop, restart, save and replay: the server to talk to)"},
    {.name = "host",
     .alias = "h",
     .member = &Options::host,
     .value_name = "HOST",
     .in_config = InConfig::kWhenSet,
     .default_text = "every interface",
     .help = "bind address of the admin API and of imposters without their own host"},
    {.name = "pidfile",
     .member = &Options::pidfile,
     .value_name = "FILE",
     .in_config = InConfig::kAlways,
     .help = "written once started, removed at exit; read by stop"},
    {.name = "nologfile",
     .member = &Options::no_logfile,
     .in_config = InConfig::kAlways,
     .help = "log to the console only"},
    {.name = "logfile",
     .member = &Options::logfile,
     .value_name = "FILE",
     .in_config = InConfig::kAlways,
     .help = "JSON-lines log file, served by GET /logs"},
    {.name = "loglevel",
     .member = &Options::loglevel,
     .value_name = "LEVEL",
     .choices = kLogLevels,
     .in_config = InConfig::kAlways,
     .help = "the least severe level logged"},
    {.name = "allowInjection",
     .alias = "i",
     .member = &Options::allow_injection,
     .in_config = InConfig::kAlways,
     .help = "allow JavaScript and shell injection (inject, decorate and wait functions, "
             "shellTransform)"},
    {.name = "localOnly",
     .alias = "l",
     .member = &Options::local_only,
     .in_config = InConfig::kAlways,
     .help = "accept only loopback connections"},
    {.name = "ipWhitelist",
     .alias = "w",
     .member = &Options::ip_whitelist,
     .value_name = "LIST",
     .set = set_ip_whitelist,
     .in_config = InConfig::kAlways,
     .help = "'|'-separated client addresses allowed to connect, matched exactly"},
    {.name = "configfile",
     .member = &Options::configfile,
     .value_name = "FILE",
     .in_config = InConfig::kWhenSet,
     .help = "imposters to load at start (Mountebank JSON or Rift's YAML)"},
    {.name = "noParse",
     .member = &Options::no_parse,
     .in_config = InConfig::kAlways,
     .help = "do not render the configfile as a template"},
    {.name = "datadir",
     .member = &Options::datadir,
     .value_name = "DIR",
     .in_config = InConfig::kWhenSet,
     .help = "keep imposters in DIR/<port>/imposter.json: every change is saved before it is "
             "acknowledged and reloaded at start"},
    {.name = "mock",
     .alias = "m",
     .member = &Options::mock,
     .in_config = InConfig::kWhenSet,
     .help = "record requests on every imposter"},
    {.name = "debug",
     .alias = "d",
     .member = &Options::debug,
     .in_config = InConfig::kAlways,
     .help = "keep each stub's matches"},
    {.name = "origin",
     .alias = "o",
     .member = &Options::origins,
     .value_name = "ORIGIN",
     .in_config = InConfig::kFalseWhenEmpty,
     .help = "an origin allowed to call the admin API from a browser (CORS); repeatable"},
    {.name = "apikey",
     .member = &Options::apikey,
     .value_name = "KEY",
     .in_config = InConfig::kNullWhenUnset,
     .help = "require the x-api-key header on the admin API"},
    {.name = "log",
     .value_name = "JSON",
     .set = set_log,
     .config_value = log_config,
     .help = "Mountebank's logging object; its level is honoured"},
    {.name = "formatter", .member = &Options::formatter, .value_name = "PATH", .help = kIgnored},
    {.name = "impostersRepository", .value_name = "PATH", .help = kIgnored},
    {.name = "protofile", .member = &Options::protofile, .value_name = "FILE", .help = kIgnored},
    {.name = "rcfile",
     .member = &Options::rcfile,
     .value_name = "FILE",
     .sources = kFromArgv | kFromEnv,
     .help = "a JSON object of options, beneath the command line and above the environment"},
    {.name = "savefile",
     .member = &Options::savefile,
     .value_name = "FILE",
     .help = "for save: where the imposters go"},
    {.name = "removeProxies",
     .alias = "r",
     .member = &Options::remove_proxies,
     .help = "for save: drop proxy responses"},
    {.name = "threads",
     .member = &Options::threads,
     .value_name = "N",
     .low = 1,
     .high = kMaxThreads,
     .default_text = "one per core",
     .help = "worker threads serving imposters"},
    {.name = "keepAlive",
     .member = &Options::keep_alive,
     .help = "keep connections open when a response sets no Connection header (the default; "
             "accepted for scripts written before it was)"},
    {.name = "mountebankFraming",
     .member = &Options::mountebank_framing,
     .help = "answer as Mountebank frames responses: Connection: close unless the stub sets a "
             "Connection header (a TCP handshake per request)"},
    {.name = "engine",
     .member = &Options::engine,
     .choices = kEngines,
     .help = "how stubs are matched: interp runs the interpreter only, jit compiles each "
             "imposter in the background after every change, auto does so when this build and "
             "machine can"},
    {.name = "seed",
     .value_name = "N",
     .set = set_seed,
     .help = "start every imposter's dice from N, so `_rift.fault` probabilities and latency "
             "ranges fall the same way on every run (an imposter's `_rift.seed` wins)"},
    {.name = "metricsPort",
     .member = &Options::metrics_port,
     .value_name = "N",
     .low = 0,
     .high = 65535,
     .default_text = "none",
     .help = "serve Prometheus metrics (the reference Rift's series and the tier that matched) "
             "at GET /metrics on this port of --host; 0 lets the system choose"},
    {.name = "frontDoor",
     .member = &Options::front_door,
     .value_name = "[HOST:]PORT",
     .help = "route requests on this port to imposters by host, path prefix, headers and method "
             "(the config file's `routes`, PUT /front-door/routes); HOST defaults to --host"},
    {.name = "frontDoorCert",
     .member = &Options::front_door_cert,
     .value_name = "FILE",
     .help = "the front door speaks HTTPS with this certificate (PEM, chain after it); with "
             "--frontDoorKey. Several, chosen by SNI: the config file's `frontDoorTls`"},
    {.name = "frontDoorKey",
     .member = &Options::front_door_key,
     .value_name = "FILE",
     .help = "the private key of --frontDoorCert (PEM)"},
    {.name = "disableHttp2",
     .member = &Options::disable_http2,
     .help = "imposters speak HTTP/1.1 only: no h2c (prior knowledge or Upgrade), no h2 by ALPN"},
    {.name = "interceptPort",
     .member = &Options::intercept_port,
     .value_name = "N",
     .low = 0,
     .high = 65535,
     .default_text = "none",
     .help = "run the intercept proxy (CONNECT, TLS terminated with leaves from its CA, rules "
             "from POST /intercept/rules) on this port of --host; 0 lets the system choose"},
    {.name = "interceptCaCert",
     .member = &Options::intercept_ca_cert,
     .value_name = "FILE",
     .help = "the intercept proxy's CA certificate (PEM); with --interceptCaKey. Unset: one is "
             "generated"},
    {.name = "interceptCaKey",
     .member = &Options::intercept_ca_key,
     .value_name = "FILE",
     .help = "the intercept CA's private key (PEM)"},
    {.name = "interceptCaCertPem",
     .member = &Options::intercept_ca_cert_pem,
     .value_name = "PEM",
     .help = "the intercept CA certificate as PEM text (instead of --interceptCaCert)"},
    {.name = "interceptCaKeyPem",
     .member = &Options::intercept_ca_key_pem,
     .value_name = "PEM",
     .help = "the intercept CA key as PEM text (instead of --interceptCaKey)"},
    {.name = "maxBodyBytes",
     .member = &Options::max_imposter_body,
     .value_name = "N",
     .low = 1,
     .high = 1ll << 40,
     .default_text = "10 MiB",
     .help = "largest imposter request body; a larger one gets 413"},
    {.name = "maxAdminBodyBytes",
     .member = &Options::max_admin_body,
     .value_name = "N",
     .low = 1,
     .high = 1ll << 40,
     .default_text = "64 MiB",
     .help = "largest admin request body; a larger one gets 413"},
    {.name = "injectionTimeout",
     .member = &Options::injection_timeout_ms,
     .value_name = "MS",
     .low = 1,
     .high = 1ll << 31,
     .help = "time limit of one injected JavaScript call, waiting for callback() included"},
    {.name = "tlsHandshakeTimeout",
     .member = &Options::tls_handshake_timeout_ms,
     .value_name = "MS",
     .low = 1,
     .high = 1ll << 31,
     .help = "an https client that has not completed its TLS handshake by then is disconnected, "
             "as by Node's tls.Server"},
    {.name = "headersTimeout",
     .member = &Options::headers_timeout_ms,
     .value_name = "MS",
     .low = 1,
     .high = 1ll << 31,
     .help = "a client that has not sent a request's complete headers by then gets 408 and is "
             "disconnected, as by Node's http.Server"},
    {.name = "requestTimeout",
     .member = &Options::request_timeout_ms,
     .value_name = "MS",
     .low = 1,
     .high = 1ll << 31,
     .help = "the same for a whole request, body included"},
    {.name = "keepAliveTimeout",
     .member = &Options::keep_alive_timeout_ms,
     .value_name = "MS",
     .low = 1,
     .high = 1ll << 31,
     .help = "a kept-alive connection idle this long after a reply is closed"},
    {.name = "maxConnections",
     .member = &Options::max_connections,
     .value_name = "N",
     .low = 0,
     .high = 1ll << 31,
     .default_text = "0, no limit",
     .help = "imposter connections open at once, over all imposters; one more is closed as soon "
             "as it is accepted (the admin port is not counted)"},
    // Only on the command line: RIFT_VERSION is a common build variable, and a stray one
    // would turn `rift start` into printing the version.
    {.name = "version",
     .member = &Options::show_version,
     .sources = kFromArgv,
     .help = "print the version and exit"},
    {.name = "help",
     .member = &Options::show_help,
     .sources = kFromArgv,
     .help = "print this help and exit"},
};

// ---- Reading a value into a row's member ---------------------------------------------------

bool truthy_flag(const std::string& value) {
  const std::string lower = ascii::lower(value);
  return !(lower.empty() || lower == "false" || lower == "0" || lower == "no");
}

// "a, b or c"
std::string spoken_list(std::span<const std::string_view> words) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += i + 1 == words.size() ? " or " : ", ";
    out += words[i];
  }
  return out;
}

template <typename T>
constexpr bool kIsNumber =
    std::is_same_v<T, int> || std::is_same_v<T, unsigned> || std::is_same_v<T, size_t>;

std::optional<std::string> set_value(Options& options, const OptionRow& row,
                                     const std::string& value) {
  if (row.set != nullptr) return row.set(options, value);
  if (!row.choices.empty() &&
      std::find(row.choices.begin(), row.choices.end(), value) == row.choices.end()) {
    return "--" + std::string(row.name) + " must be " + spoken_list(row.choices) + ", not '" +
           value + "'";
  }
  return std::visit(
      [&](auto member) -> std::optional<std::string> {
        if constexpr (std::is_same_v<decltype(member), std::monostate>) {
          return std::nullopt;  // accepted and ignored
        } else {
          auto& target = options.*member;
          using T = std::remove_reference_t<decltype(target)>;
          if constexpr (std::is_same_v<T, bool>) {
            target = truthy_flag(value);
          } else if constexpr (kIsNumber<T>) {
            long long parsed = 0;
            auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), parsed);
            if (error != std::errc() || end != value.data() + value.size() || parsed < row.low ||
                parsed > row.high) {
              return "invalid value for --" + std::string(row.name) + ": '" + value +
                     "' (a whole number from " + std::to_string(row.low) + " to " +
                     std::to_string(row.high) + ")";
            }
            target = static_cast<T>(parsed);
          } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
            target.push_back(value);
          } else {
            target = value;
          }
          return std::nullopt;
        }
      },
      row.member);
}

// ---- The /config view ---------------------------------------------------------------------

template <typename T>
bool is_set(const T& value) {
  if constexpr (std::is_same_v<T, bool>) {
    return value;
  } else if constexpr (kIsNumber<T>) {
    return true;
  } else if constexpr (std::is_same_v<T, std::optional<std::string>>) {
    return value.has_value();
  } else {
    return !value.empty();
  }
}

template <typename T>
ir::Json as_json(const T& value) {
  if constexpr (std::is_same_v<T, std::optional<std::string>>) {
    return value ? ir::Json(*value) : ir::Json(nullptr);
  } else {
    return ir::Json(value);
  }
}

// The row's /config value, or nothing when it is left out.
std::optional<ir::Json> config_value(const Options& options, const OptionRow& row) {
  if (row.config_value != nullptr) return row.config_value(options);
  return std::visit(
      [&](auto member) -> std::optional<ir::Json> {
        if constexpr (std::is_same_v<decltype(member), std::monostate>) {
          return std::nullopt;
        } else {
          const auto& value = options.*member;
          switch (row.in_config) {
            case InConfig::kNo:
              return std::nullopt;
            case InConfig::kAlways:
            case InConfig::kNullWhenUnset:
              return as_json(value);
            case InConfig::kWhenSet:
              if (!is_set(value)) return std::nullopt;
              return as_json(value);
            case InConfig::kFalseWhenEmpty:
              return is_set(value) ? as_json(value) : ir::Json(false);
          }
          return std::nullopt;
        }
      },
      row.member);
}

// ---- Sources --------------------------------------------------------------------------------

const OptionRow* find_row(std::string_view name) {
  for (const OptionRow& row : kOptionTable) {
    if (name == row.name || (!row.alias.empty() && name == row.alias)) return &row;
  }
  return nullptr;
}

// "metrics-port" -> "metricsPort".
std::string camel_case(std::string_view kebab) {
  std::string out;
  bool upper = false;
  for (char c : kebab) {
    if (c == '-') {
      upper = !out.empty();
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return out;
}

// Lowest precedence first: a later source's value wins.
enum class Source { kMbEnv, kRiftEnv, kRcfile, kArgv };

struct Setting {
  const OptionRow* row;
  std::string value;
  Source source;
  std::string origin;  // appended to an error: " (from MB_PORT)"; empty for the command line
};

std::optional<std::string> read_argv(const std::vector<std::string>& args,
                                     std::vector<Setting>& out,
                                     std::optional<std::string>& command) {
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
    const OptionRow* row = find_row(name);
    // The reference Rift spells its options in kebab case (--allow-injection, --metrics-port).
    if (row == nullptr && arg.rfind("--", 0) == 0) row = find_row(camel_case(name));
    if (row == nullptr) return "Unknown option '" + arg + "'.";
    std::string value;
    if (inline_value) {
      value = *inline_value;
    } else if (row->is_flag()) {
      value = "true";
      // Mountebank's parser also takes `--flag false`.
      if (i + 1 < args.size() && (args[i + 1] == "true" || args[i + 1] == "false")) {
        value = args[++i];
      }
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      return "Option " + arg + " needs a value.";
    }
    out.push_back({row, std::move(value), Source::kArgv, ""});
  }
  return std::nullopt;
}

void read_environment(char** environment, std::vector<Setting>& out) {
  if (environment == nullptr) return;
  std::map<std::string, std::string, std::less<>> env;
  for (char** entry = environment; *entry != nullptr; ++entry) {
    std::string_view text(*entry);
    auto equals = text.find('=');
    if (equals != std::string_view::npos) {
      env.emplace(std::string(text.substr(0, equals)), std::string(text.substr(equals + 1)));
    }
  }
  constexpr std::pair<const char*, Source> kPrefixes[] = {{"MB_", Source::kMbEnv},
                                                          {"RIFT_", Source::kRiftEnv}};
  for (auto [prefix, source] : kPrefixes) {
    for (const OptionRow& row : kOptionTable) {
      if ((row.sources & kFromEnv) == 0) continue;
      const std::string variable = prefix + option_env_suffix(row.name);
      auto it = env.find(variable);
      if (it != env.end()) out.push_back({&row, it->second, source, " (from " + variable + ")"});
    }
  }
}

// An rcfile entry as the values the command line would give: null gives none, an array gives
// each element for a repeatable option and the elements joined by '|' for a list.
std::vector<std::string> rcfile_values(const OptionRow& row, const ir::Json& value) {
  auto text = [](const ir::Json& item) {
    return item.is_string() ? item.get<std::string>() : item.dump();
  };
  if (value.is_null()) return {};
  if (!value.is_array()) return {text(value)};
  const bool list = std::holds_alternative<std::vector<std::string> Options::*>(row.member);
  if (!list) return {value.dump()};
  std::vector<std::string> out;
  for (const ir::Json& item : value) out.push_back(text(item));
  if (row.is_repeatable()) return out;
  std::string joined;
  for (size_t i = 0; i < out.size(); ++i) joined += (i > 0 ? "|" : "") + out[i];
  return {joined};
}

std::optional<std::string> read_rcfile(const std::string& path, std::vector<Setting>& out) {
  std::ifstream in(path);
  if (!in) return "Cannot read rcfile '" + path + "'.";
  std::stringstream text;
  text << in.rdbuf();
  auto parsed = ir::Json::parse(text.str(), nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    return "rcfile '" + path + "' is not a JSON object.";
  }
  for (const auto& [name, value] : parsed.items()) {
    const OptionRow* row = find_row(name);
    if (row == nullptr || (row->sources & kFromRcfile) == 0) continue;  // as Mountebank: ignored
    for (std::string& one : rcfile_values(*row, value)) {
      out.push_back({row, std::move(one), Source::kRcfile, " (from rcfile '" + path + "')"});
    }
  }
  return std::nullopt;
}

// ---- --help ---------------------------------------------------------------------------------

constexpr size_t kHelpColumn = 27;
constexpr size_t kHelpWidth = 96;

// `text` wrapped at word boundaries to kHelpWidth, every line but the first indented to
// kHelpColumn.
std::string wrapped(std::string_view text) {
  std::string out;
  size_t column = kHelpColumn;
  std::istringstream words{std::string(text)};
  for (std::string word; words >> word;) {
    if (column > kHelpColumn && column + 1 + word.size() > kHelpWidth) {
      out += '\n' + std::string(kHelpColumn, ' ');
      column = kHelpColumn;
    } else if (column > kHelpColumn) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
  }
  return out;
}

std::string help_line(const OptionRow& row) {
  std::string label = row.alias.empty() ? "" : "-" + std::string(row.alias) + ", ";
  label += "--" + std::string(row.name);
  if (!row.is_flag()) {
    std::string value(row.value_name);
    if (value.empty()) {
      for (std::string_view choice : row.choices)
        value += (value.empty() ? "" : "|") + std::string(choice);
    }
    if (!value.empty()) label += " " + value;
  }
  std::string text(row.help);
  if (!row.choices.empty() && !row.value_name.empty()) text += ": " + spoken_list(row.choices);
  if (std::string shown = option_default_text(row); !shown.empty()) {
    // Kept on one line: '\x1f' stands for its spaces until the text is wrapped.
    std::replace(shown.begin(), shown.end(), ' ', '\x1f');
    text += " (default\x1f" + shown + ")";
  }
  std::string line = "  " + label;
  if (line.size() + 1 > kHelpColumn) {
    line += '\n' + std::string(kHelpColumn, ' ');
  } else {
    line += std::string(kHelpColumn - line.size(), ' ');
  }
  line += wrapped(text);
  std::replace(line.begin(), line.end(), '\x1f', ' ');
  return line + '\n';
}

}  // namespace

std::span<const OptionRow> option_table() {
  return kOptionTable;
}

std::string option_env_suffix(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (c >= 'A' && c <= 'Z') out += '_';
    out += ascii::upper(c);
  }
  return out;
}

std::string option_default_text(const OptionRow& row) {
  if (!row.default_text.empty()) return std::string(row.default_text);
  static const Options defaults;
  return std::visit(
      [](auto member) -> std::string {
        if constexpr (std::is_same_v<decltype(member), std::monostate>) {
          return "";
        } else {
          const auto& value = defaults.*member;
          using T = std::remove_cvref_t<decltype(value)>;
          if constexpr (kIsNumber<T>) {
            return std::to_string(value);
          } else if constexpr (std::is_same_v<T, std::string>) {
            return value;
          } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
            std::string out;
            for (const std::string& item : value) out += (out.empty() ? "" : ", ") + item;
            return out;
          } else {
            return "";  // flags are off, optionals unset
          }
        }
      },
      row.member);
}

std::variant<Options, std::string> parse_options(const std::vector<std::string>& args,
                                                 char** environment) {
  std::vector<Setting> command_line;
  std::optional<std::string> command;
  if (auto error = read_argv(args, command_line, command)) return *error;

  std::vector<Setting> settings;  // lowest precedence first
  read_environment(environment, settings);

  // The rcfile sits between the environment and the command line; its path may come from
  // either (the last --rcfile, else RIFT_RCFILE, else MB_RCFILE).
  std::optional<std::string> rcfile;
  for (const auto* source : {&settings, &command_line}) {
    for (const Setting& setting : *source) {
      if (setting.row->name == "rcfile") rcfile = setting.value;
    }
  }
  if (rcfile) {
    if (auto error = read_rcfile(*rcfile, settings)) return *error;
  }
  settings.insert(settings.end(), command_line.begin(), command_line.end());

  Options options;
  std::map<const OptionRow*, Source> list_source;  // where a repeatable option's values are from
  for (const Setting& setting : settings) {
    const OptionRow& row = *setting.row;
    if (row.is_repeatable()) {
      auto [it, first] = list_source.try_emplace(&row, setting.source);
      if (first || it->second != setting.source) {
        (options.*std::get<std::vector<std::string> Options::*>(row.member)).clear();
        it->second = setting.source;
      }
    }
    if (auto error = set_value(options, row, setting.value)) return *error + setting.origin;
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
  for (const OptionRow& row : kOptionTable) {
    if (auto value = config_value(*this, row)) out[std::string(row.name)] = std::move(*value);
  }
  return out;
}

std::string usage_text() {
  std::string out = R"(Usage: rift [command] [options]

Commands:
  start      Start the server (default)
  stop       Stop a running server (reads --pidfile)
  restart    Stop, then start
  save       Save the running server's imposters to --savefile
  replay     Switch a running server from recording to replaying proxies

Options. Each but --version and --help can also be set in the environment as MB_<OPTION> or
RIFT_<OPTION> in upper snake case (RIFT_PORT=3000, MB_ALLOW_INJECTION=true). The command line
wins over --rcfile, which wins over RIFT_*, which wins over MB_*.
)";
  for (const OptionRow& row : kOptionTable) out += help_line(row);
  return out;
}

}  // namespace rift
