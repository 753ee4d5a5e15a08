// Command-line options of `rift`, Mountebank's CLI (docs/mountebank-semantics.md §7)
// plus Rift's own.
//
// Each option is one row of the table in options.cpp (runtime/options/option_table.h), which
// reads it from the command line, `--rcfile` and the environment (MB_<OPTION> and
// RIFT_<OPTION> in upper snake case: MB_PORT, RIFT_ALLOW_INJECTION, ...). Precedence: the
// command line, then the rcfile, then RIFT_*, then MB_*. A member's initializer is the option's
// default.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "compiler/ir.h"

namespace rift {

struct Options {
  std::string command = "start";  // start | stop | restart | save | replay | help
  int port = 2525;
  std::string host;  // empty: every interface
  std::optional<std::string> configfile;
  bool no_parse = false;
  std::optional<std::string> datadir;
  std::string pidfile = "mb.pid";
  std::string logfile = "mb.log";
  bool no_logfile = false;
  std::string loglevel = "info";
  bool allow_injection = false;
  bool local_only = false;
  std::vector<std::string> ip_whitelist = {"*"};
  std::vector<std::string> origins;
  std::optional<std::string> apikey;
  bool mock = false;
  bool debug = false;
  std::string savefile = "mb.json";
  bool remove_proxies = false;
  std::optional<std::string> formatter;
  std::optional<std::string> protofile;
  std::optional<std::string> rcfile;
  // Rift's own.
  unsigned threads = 0;  // 0: one per core
  // Responses without a Connection header keep the connection open (as nginx and the reference
  // Rift do) unless --mountebankFraming asks for Mountebank's `Connection: close`. --keepAlive,
  // from before that was the default, still wins over it.
  bool keep_alive = false;
  bool mountebank_framing = false;
  // interp | jit | auto: whether plans are JIT-compiled in the background (docs/jit.md).
  std::string engine = "auto";
  size_t max_imposter_body = 10u << 20;
  size_t max_admin_body = 64u << 20;
  // The time limit of one inject/decorate/wait function call (docs/javascript.md).
  size_t injection_timeout_ms = 10000;
  size_t tls_handshake_timeout_ms = 120000;
  size_t headers_timeout_ms = 60000;
  size_t request_timeout_ms = 300000;
  size_t keep_alive_timeout_ms = 5000;
  size_t max_connections = 0;    // 0: no limit
  std::optional<uint64_t> seed;  // --seed: the imposters' dice (docs/faults.md#seeds)
  int metrics_port = -1;         // --metricsPort (docs/metrics.md); -1: none
  // --frontDoor HOST:PORT or PORT (docs/front-door.md): the front door's listener; unset: none.
  std::optional<std::string> front_door;
  // --frontDoorCert/--frontDoorKey FILE: the front door speaks HTTPS with this certificate
  // (several, chosen by SNI: the config file's `frontDoorTls` block).
  std::optional<std::string> front_door_cert;
  std::optional<std::string> front_door_key;
  // --interceptPort and its CA (docs/intercept.md): the intercept proxy at start; -1: none.
  int intercept_port = -1;
  bool disable_http2 = false;  // --disableHttp2 (RIFT_DISABLE_HTTP2): imposters speak HTTP/1 only
  std::optional<std::string> intercept_ca_cert, intercept_ca_key;          // files
  std::optional<std::string> intercept_ca_cert_pem, intercept_ca_key_pem;  // PEM text
  bool show_version = false;
  bool show_help = false;
  // Set by a frozen mock (riftc compile), never from the command line: the admin API answers
  // reads and refuses every change.
  bool frozen = false;

  // The `options` object of GET /config, in Mountebank's shape.
  ir::Json to_config_json() const;
  bool operator==(const Options&) const = default;
};

// Parses argv (without argv[0]), the rcfile and the environment (nullptr: none). Errors name the
// offending option, and the variable or rcfile it came from.
std::variant<Options, std::string> parse_options(const std::vector<std::string>& args,
                                                 char** environment);

// --help: the commands, then every option of the table with its help text.
std::string usage_text();

}  // namespace rift
