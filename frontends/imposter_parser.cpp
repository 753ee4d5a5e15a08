// parse_imposter: the imposter-level checks of Mountebank's impostersController
// (docs/mountebank-semantics.md §1.4), then every stub, then the imposter's settings (§2.1).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <type_traits>

#include "compiler/header_text.h"
#include "compiler/js_value.h"
#include "compiler/validate.h"
#include "frontends/mountebank_json.h"
#include "frontends/rift_block.h"
#include "frontends/rift_script.h"

namespace rift::frontends {
namespace {

struct PortCheck {
  bool valid = true;
  std::optional<int> port;
};

// Mountebank accepts `port.toString()` without a '.' that compares as 1..65535; booleans and
// arrays, which JavaScript would coerce, are refused because nothing could bind them.
PortCheck check_port(const ir::Json& body) {
  auto it = body.find("port");
  if (it == body.end()) return {};
  const ir::Json& port = *it;
  std::optional<double> value;
  if (port.is_number()) value = port.get<double>();
  if (port.is_string()) value = js::number_from_string(port.get<std::string>());
  const bool has_dot = js::to_string(port).find('.') != std::string::npos;
  if (!value || has_dot || std::isnan(*value) || *value <= 0 || *value >= 65536 ||
      *value != std::floor(*value)) {
    return {false, std::nullopt};
  }
  return {true, static_cast<int>(*value)};
}

void add_protocol_errors(const ir::Json& body, MbErrors& errors) {
  auto it = body.find("protocol");
  if (it == body.end()) {
    errors.push_back(bad_data("'protocol' is a required field"));
  } else if (*it != "http" && *it != "https" && *it != "tcp" && *it != "smtp") {
    errors.push_back(bad_data("the " + js::to_string(*it) + " protocol is not yet supported"));
  }
}

const ir::Json* truthy_member(const ir::Json& body, const char* key) {
  auto it = body.find(key);
  return it != body.end() && js::truthy(*it) ? &*it : nullptr;
}

bool is_protocol(const ir::Json& body, const char* protocol) {
  auto it = body.find("protocol");
  return it != body.end() && *it == protocol;
}

// Mountebank's tcpValidator: a truthy mode other than text or binary.
void add_tcp_errors(const ir::Json& body, const ParseOptions& options, MbErrors& errors) {
  if (!is_protocol(body, "tcp")) return;
  auto mode = body.find("mode");
  if (mode != body.end() && js::truthy(*mode) && *mode != "text" && *mode != "binary") {
    errors.push_back(bad_data("'mode' must be one of ['text', 'binary']"));
  }
  // The resolver is JavaScript like any inject.
  const auto* resolver = truthy_member(body, "endOfRequestResolver");
  if (!options.allow_injection && resolver && resolver->is_object() &&
      resolver->contains("inject")) {
    errors.push_back(MbError{"invalid injection",
                             "JavaScript injection is not allowed unless mb is run with the "
                             "--allowInjection flag",
                             *resolver});
  }
}

ir::TlsOptions parse_tls(const ir::Json& body) {
  ir::TlsOptions tls;
  if (const auto* key = truthy_member(body, "key"); key && key->is_string()) {
    tls.key = key->get<std::string>();
  }
  if (const auto* cert = truthy_member(body, "cert"); cert && cert->is_string()) {
    tls.cert = cert->get<std::string>();
  }
  tls.mutual_auth = truthy_member(body, "mutualAuth") != nullptr;
  if (auto given = body.find("rejectUnauthorized"); given != body.end()) {
    tls.reject_unauthorized = *given == true;
    tls.reject_unauthorized_echo = *given;
  }
  if (auto given = body.find("ca"); given != body.end()) tls.ca_echo = *given;
  if (const auto* ca = truthy_member(body, "ca")) {
    std::vector<std::string> pems;
    if (ca->is_string()) pems.push_back(ca->get<std::string>());
    if (ca->is_array()) {
      for (const auto& pem : *ca) {
        if (pem.is_string()) pems.push_back(pem.get<std::string>());
      }
    }
    tls.ca = std::move(pems);
  }
  if (const auto* ciphers = truthy_member(body, "ciphers"); ciphers && ciphers->is_string()) {
    std::string upper = ciphers->get<std::string>();
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    tls.ciphers = std::move(upper);
  }
  return tls;
}

ir::Imposter parse_settings(const ir::Json& body, std::optional<int> port) {
  ir::Imposter imposter;
  imposter.protocol = body["protocol"].get<std::string>();
  imposter.port = port;
  if (const auto* name = truthy_member(body, "name")) imposter.name = js::to_string(*name);
  imposter.record_requests = truthy_member(body, "recordRequests") != nullptr;
  if (const auto* defaults = truthy_member(body, "defaultResponse");
      defaults && defaults->is_object()) {
    imposter.default_response = *defaults;
  }
  imposter.allow_cors = truthy_member(body, "allowCORS") != nullptr;
  if (const auto* host = truthy_member(body, "host"); host && host->is_string()) {
    imposter.host = host->get<std::string>();
  }
  if (imposter.protocol == "https") imposter.tls = parse_tls(body);
  if (imposter.protocol == "tcp" || imposter.protocol == "smtp") {
    // smtp keeps a binary mode only for what its dry run refuses (binary_mode_error).
    const auto* mode = truthy_member(body, "mode");
    imposter.mode = mode && mode->is_string() ? mode->get<std::string>() : "text";
  }
  if (imposter.protocol == "tcp") {
    if (const auto* resolver = truthy_member(body, "endOfRequestResolver")) {
      imposter.end_of_request_resolver = *resolver;
    }
  }
  return imposter;
}

// Shared by both overloads: `Body` is `const ir::Json` (stubs copied) or `ir::Json` (moved).
template <typename Body>
std::variant<ir::Imposter, MbErrors> parse_body(Body& body, const ParseOptions& options) {
  MbErrors errors;
  const PortCheck port = check_port(body);
  if (!port.valid) errors.push_back(bad_data("invalid value for 'port'"));
  add_protocol_errors(body, errors);
  add_tcp_errors(body, options, errors);
  if (const auto* defaults = truthy_member(body, "defaultResponse");
      defaults && defaults->is_object() && defaults->contains("headers")) {
    if (auto problem = header_text::problem((*defaults)["headers"])) {
      errors.push_back(bad_data("defaultResponse: " + *problem, *defaults));
    }
  }
  ir::ImposterSettings extensions;
  for (auto& error : parse_rift_block(body, extensions)) errors.push_back(std::move(error));
  if (!errors.empty()) return errors;

  Body* stubs = nullptr;
  if (const auto* given = truthy_member(body, "stubs")) {
    if (!given->is_array()) return MbErrors{bad_data("'stubs' must be an array")};
    stubs = &*body.find("stubs");
  }
  ir::Imposter imposter = parse_settings(body, port.port);
  imposter.flow_id_source = std::move(extensions.flow_id_source);
  imposter.rift = std::move(extensions.rift);
  imposter.enabled = extensions.enabled;
  imposter.default_forward = std::move(extensions.default_forward);
  imposter.strict_behaviors = extensions.strict_behaviors;
  imposter.service_name = std::move(extensions.service_name);
  imposter.service_info = std::move(extensions.service_info);
  if (stubs == nullptr) return imposter;
  imposter.stubs.reserve(stubs->size());
  PredicateValidator validator;  // one dry-run context for every stub
  ParseOptions with_scripts = stub_options(imposter, options.allow_injection);
  for (auto& stub : *stubs) {
    auto parsed = std::is_const_v<Body> ? parse_stub(stub, with_scripts, validator)
                                        : parse_stub(std::move(stub), with_scripts, validator);
    if (auto* stub_errors = std::get_if<MbErrors>(&parsed)) {
      errors.insert(errors.end(), stub_errors->begin(), stub_errors->end());
    } else {
      imposter.stubs.push_back(std::get<ir::Stub>(std::move(parsed)));
    }
  }
  if (!errors.empty()) return errors;
  if (auto conflict = duplicate_stub_id(imposter.stubs)) return MbErrors{*conflict};
  return imposter;
}

}  // namespace

ParseOptions stub_options(const ir::ImposterSettings& imposter, bool allow_injection) {
  ParseOptions options;
  options.allow_injection = allow_injection;
  options.scripts = script_registry(imposter.rift);
  options.binary_data = imposter.mode == "binary";
  return options;
}

std::variant<ir::Imposter, MbErrors> parse_imposter(const ir::Json& body,
                                                    const ParseOptions& options) {
  // References, not copies: a 10,000-stub body is megabytes of JSON tree (issue 6, admin plane).
  static const ir::Json kNoBody = ir::Json::object();
  return parse_body(body.is_object() ? body : kNoBody, options);
}

std::variant<ir::Imposter, MbErrors> parse_imposter_moving_stubs(ir::Json& body,
                                                                 const ParseOptions& options) {
  if (!body.is_object()) body = ir::Json::object();
  return parse_body(body, options);
}

}  // namespace rift::frontends
