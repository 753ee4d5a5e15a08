#include "runtime/admin/reload.h"

#include <string>
#include <variant>
#include <vector>

#include "frontends/config_file.h"
#include "frontends/route_table.h"
#include "runtime/admin/reconcile.h"
#include "runtime/datadir/sync.h"
#include "runtime/front_door/certificate_specs.h"
#include "runtime/front_door/front_door.h"

namespace rift::admin {
namespace {

// The imposters the source holds now, or why they cannot be read.
// The imposters to reconcile to, and the config file's `routes` block and front door
// certificates (built, so that publishing them cannot fail) when it has them.
struct Source {
  ir::Json imposters;
  std::optional<ir::Json> routes;
  std::shared_ptr<const front_door::CertificateTable> certificates;
};

std::variant<Source, std::string> read_source(AdminState& state) {
  if (state.datadir) {
    auto loaded =
        state.datadir->store().load([&state](const std::string& line) { state.logger.warn(line); });
    if (auto* error = std::get_if<std::string>(&loaded)) return *error;
    ir::Json imposters = ir::Json::array();
    for (auto& stored : std::get<std::vector<StoredImposter>>(loaded)) {
      imposters.push_back(std::move(stored.document));
    }
    return Source{std::move(imposters), std::nullopt, nullptr};
  }
  auto loaded =
      frontends::load_config_document(*state.options.configfile, {state.options.no_parse});
  if (auto* error = std::get_if<frontends::ConfigError>(&loaded)) return error->to_string();
  auto& document = std::get<frontends::ConfigDocument>(loaded);
  if (document.routes) {
    // Refused before anything changes, as a bad imposter would be.
    auto parsed = frontends::parse_route_table(*document.routes);
    if (auto* error = std::get_if<std::string>(&parsed)) return "routes: " + *error;
  }
  std::shared_ptr<const front_door::CertificateTable> certificates;
  // Certificates change only on a front door that speaks TLS; a plain one stays plain.
  if (document.front_door_tls && state.front_door && state.front_door->tls()) {
    auto specs = front_door::read_certificate_block(*document.front_door_tls);
    if (auto* error = std::get_if<std::string>(&specs)) return "frontDoorTls: " + *error;
    auto built = front_door::CertificateTable::build(
        std::get<std::vector<front_door::CertificateSpec>>(specs),
        state.front_door->tls()->offers_h2());
    if (auto* error = std::get_if<std::string>(&built)) return "frontDoorTls: " + *error;
    certificates = std::get<std::shared_ptr<const front_door::CertificateTable>>(std::move(built));
  }
  return Source{ir::Json(std::move(document.imposters)), std::move(document.routes),
                std::move(certificates)};
}

MbError reload_failed(const std::string& why) {
  return MbError{"internal error", "Reload failed (imposters unchanged): " + why};
}

}  // namespace

void post_reload(AdminState& state, Call& call) {
  if (!state.datadir && !state.options.configfile) {
    return call.send(200, ir::Json{{"message", "No config source configured; nothing to reload"}});
  }
  auto source = read_source(state);
  if (auto* why = std::get_if<std::string>(&source)) return call.fail(500, {reload_failed(*why)});
  const ir::Json& imposters = std::get<Source>(source).imposters;
  const std::optional<ir::Json>& routes = std::get<Source>(source).routes;
  auto reconciled = reconcile(state, imposters);
  if (auto* refused = std::get_if<MbErrors>(&reconciled)) {
    std::string why;
    for (const auto& error : *refused) why += (why.empty() ? "" : "; ") + error.message;
    return call.fail(500, {reload_failed(why)});
  }
  const Reconciled& done = std::get<Reconciled>(reconciled);
  if (routes && state.front_door) state.front_door->set_routes(*routes);  // validated above
  if (auto& certificates = std::get<Source>(source).certificates) {
    state.front_door->tls()->publish(certificates);
  }
  ir::Json answer = {{"message", "Reloaded " + std::to_string(imposters.size()) + " imposter(s)"}};
  const ir::Json lists = done.to_json();
  for (const auto& [key, value] : lists.items()) answer[key] = value;
  if (done.failure) {
    answer["errors"] = (*done.failure)["errors"];
    return call.send(500, answer);
  }
  call.send(200, answer);
}

}  // namespace rift::admin
