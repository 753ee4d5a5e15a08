#include "runtime/intercept/settings.h"

#include "runtime/base/text_file.h"

namespace rift::intercept {

namespace {

// The CA from a path pair or a PEM pair (each both-or-neither, the two pairs exclusive).
std::optional<std::string> read_ca(const std::optional<std::string>& cert_path,
                                   const std::optional<std::string>& key_path,
                                   const std::optional<std::string>& cert_pem,
                                   const std::optional<std::string>& key_pem,
                                   const std::string& names, Settings& settings) {
  if (cert_path.has_value() != key_path.has_value() ||
      cert_pem.has_value() != key_pem.has_value()) {
    return "the intercept CA's certificate and key go together: give both or neither (" + names +
           ")";
  }
  if (cert_path && cert_pem) {
    return "give the intercept CA as files or as PEM text, not both (" + names + ")";
  }
  if (cert_path) {
    settings.ca_cert_pem = read_text_file(*cert_path);
    if (!settings.ca_cert_pem) return "cannot read the intercept CA certificate " + *cert_path;
    settings.ca_key_pem = read_text_file(*key_path);
    if (!settings.ca_key_pem) return "cannot read the intercept CA key " + *key_path;
  } else if (cert_pem) {
    settings.ca_cert_pem = *cert_pem;
    settings.ca_key_pem = *key_pem;
  }
  return std::nullopt;
}

std::optional<std::string> string_field(const ir::Json& body, const char* name,
                                        std::string& error) {
  auto it = body.find(name);
  if (it == body.end() || it->is_null()) return std::nullopt;
  if (!it->is_string()) {
    error = std::string("'") + name + "' must be a string";
    return std::nullopt;
  }
  return it->get<std::string>();
}

}  // namespace

std::variant<Settings, std::string> read_settings(const ir::Json& body) {
  Settings settings;
  if (body.is_null()) return settings;
  if (!body.is_object()) return std::string("the intercept settings must be a JSON object");
  std::string error;
  if (auto host = string_field(body, "host", error)) settings.host = *host;
  if (auto port = body.find("port"); port != body.end() && !port->is_null()) {
    if (!port->is_number_integer() || port->get<int64_t>() < 0 || port->get<int64_t>() > 65535) {
      return std::string("'port' must be a port number from 0 to 65535");
    }
    settings.port = static_cast<uint16_t>(port->get<int64_t>());
  }
  const auto cert_path = string_field(body, "caCertPath", error);
  const auto key_path = string_field(body, "caKeyPath", error);
  const auto cert_pem = string_field(body, "caCertPem", error);
  const auto key_pem = string_field(body, "caKeyPem", error);
  if (!error.empty()) return error;
  if (auto failed = read_ca(cert_path, key_path, cert_pem, key_pem,
                            "caCertPath/caKeyPath, caCertPem/caKeyPem", settings)) {
    return *failed;
  }
  if (auto key = body.find("returnCaKey"); key != body.end() && !key->is_null()) {
    if (!key->is_boolean()) return std::string("'returnCaKey' must be true or false");
    settings.return_ca_key = key->get<bool>();
  }
  if (auto rules = body.find("rules"); rules != body.end() && !rules->is_null()) {
    if (!rules->is_array()) return std::string("'rules' must be an array");
    settings.rules = *rules;
  }
  return settings;
}

std::variant<std::optional<Settings>, std::string> settings_from_flags(const Flags& flags,
                                                                       const std::string& host) {
  const bool any_ca =
      flags.ca_cert_path || flags.ca_key_path || flags.ca_cert_pem || flags.ca_key_pem;
  if (!flags.port) {
    if (any_ca) return std::string("the --intercept-ca-* options need --intercept-port");
    return std::optional<Settings>();
  }
  if (*flags.port < 0 || *flags.port > 65535) {
    return std::string("--intercept-port must be a port number from 0 to 65535");
  }
  Settings settings;
  settings.port = static_cast<uint16_t>(*flags.port);
  if (!host.empty()) settings.host = host;
  if (auto failed =
          read_ca(flags.ca_cert_path, flags.ca_key_path, flags.ca_cert_pem, flags.ca_key_pem,
                  "--intercept-ca-cert/--intercept-ca-key, "
                  "--intercept-ca-cert-pem/--intercept-ca-key-pem",
                  settings)) {
    return *failed;
  }
  return std::optional<Settings>(std::move(settings));
}

}  // namespace rift::intercept
