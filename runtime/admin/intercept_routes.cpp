#include "runtime/admin/intercept_routes.h"

#include "runtime/intercept/intercept.h"
#include "runtime/intercept/settings.h"
#include "runtime/intercept/truststore.h"

namespace rift::admin {

namespace {

constexpr const char* kDefaultTruststorePassword = "changeit";

void refuse(Call& call, int status, const std::string& message) {
  const char* code = status == 404   ? "no such resource"
                     : status == 409 ? "resource conflict"
                     : status == 429 ? "too many requests"
                                     : "bad data";
  call.fail(status, {MbError{code, message, std::nullopt}});
}

// The running proxy, or a 404 saying there is none (an admin API without the slot, an embedding
// or a fuzzer, has none either).
intercept::Intercept* running(AdminState& state, Call& call) {
  if (state.intercept && *state.intercept) return state.intercept->get();
  refuse(call, 404, "intercept listener not running");
  return nullptr;
}

void send_truststore(Call& call, std::string bytes, std::string_view password,
                     const char* file_name) {
  call.send_raw(200, "application/octet-stream", std::move(bytes),
                {{"Content-Disposition", std::string("attachment; filename=\"") + file_name + "\""},
                 {"x-truststore-password", std::string(password)}});
}

std::string password_of(const Call& call) {
  const auto given = call.query("password");
  return given ? std::string(*given) : kDefaultTruststorePassword;
}

}  // namespace

void post_intercept(AdminState& state, Call& call) {
  if (!state.intercept) return refuse(call, 404, "this server cannot run an intercept proxy");
  if (*state.intercept) return refuse(call, 409, "intercept listener already running");
  auto settings = intercept::read_settings(call.body);
  if (auto* error = std::get_if<std::string>(&settings)) return refuse(call, 400, *error);
  const bool return_key = std::get<intercept::Settings>(settings).return_ca_key;
  auto started = intercept::Intercept::start(state.registry,
                                             std::get<intercept::Settings>(std::move(settings)),
                                             state.options.allow_injection);
  if (auto* refusal = std::get_if<intercept::Refusal>(&started)) {
    return refuse(call, refusal->status, refusal->message);
  }
  *state.intercept = std::get<std::unique_ptr<intercept::Intercept>>(std::move(started));
  const intercept::Intercept& proxy = **state.intercept;
  state.logger.info("Intercept proxy listening on port " + std::to_string(proxy.port()));
  ir::Json reply = proxy.status();
  if (return_key) {
    reply["caCertPem"] = proxy.authority().cert_pem();
    reply["caKeyPem"] = proxy.authority().key_pem();
  }
  call.send(201, reply);
}

void get_intercept(AdminState& state, Call& call) {
  if (auto* proxy = running(state, call)) call.send(200, proxy->status());
}

void delete_intercept(AdminState& state, Call& call) {
  if (state.intercept) state.intercept->reset();
  call.send_raw(204, "", "");
}

void post_intercept_rules(AdminState& state, Call& call) {
  auto* proxy = running(state, call);
  if (!proxy) return;
  auto added = proxy->add_rules(call.body);
  if (auto* refusal = std::get_if<intercept::Refusal>(&added)) {
    return refuse(call, refusal->status, refusal->message);
  }
  call.send(201, std::get<ir::Json>(added));
}

void get_intercept_rules(AdminState& state, Call& call) {
  if (auto* proxy = running(state, call)) call.send(200, proxy->rules());
}

void delete_intercept_rules(AdminState& state, Call& call) {
  if (auto* proxy = running(state, call))
    call.send(200, ir::Json{{"deleted", proxy->clear_rules()}});
}

void get_intercept_ca(AdminState& state, Call& call) {
  if (auto* proxy = running(state, call)) {
    call.send_raw(200, "application/x-pem-file", proxy->authority().cert_pem());
  }
}

void get_intercept_p12(AdminState& state, Call& call) {
  auto* proxy = running(state, call);
  if (!proxy) return;
  const std::string password = password_of(call);
  send_truststore(call, intercept::export_pkcs12(proxy->authority(), password), password,
                  "rift-intercept-ca.p12");
}

void get_intercept_jks(AdminState& state, Call& call) {
  auto* proxy = running(state, call);
  if (!proxy) return;
  const std::string password = password_of(call);
  send_truststore(call, intercept::export_jks(proxy->authority(), password), password,
                  "rift-intercept-ca.jks");
}

}  // namespace rift::admin
