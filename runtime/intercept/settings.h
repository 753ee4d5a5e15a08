// How an intercept proxy is asked for, read into intercept::Settings: the JSON of POST /intercept
// and of the config file's `intercept` block ({host, port, caCertPath|caCertPem,
// caKeyPath|caKeyPem, returnCaKey, rules}), and the --intercept-* flags.
#pragma once

#include <optional>
#include <string>
#include <variant>

#include "compiler/ir.h"
#include "runtime/intercept/intercept.h"

namespace rift::intercept {

// `body` null or {} means every default. The error says which field is wrong.
std::variant<Settings, std::string> read_settings(const ir::Json& body);

struct Flags {
  std::optional<int> port;
  std::optional<std::string> ca_cert_path, ca_key_path, ca_cert_pem, ca_key_pem;
};

// The flags as settings (host: the server's --host, or 127.0.0.1). nullopt inside the variant:
// no --intercept-port, so no proxy.
std::variant<std::optional<Settings>, std::string> settings_from_flags(const Flags& flags,
                                                                       const std::string& host);

}  // namespace rift::intercept
