#include "runtime/admin/reload.h"

#include <string>
#include <variant>
#include <vector>

#include "frontends/config_file.h"
#include "runtime/admin/reconcile.h"
#include "runtime/datadir/sync.h"

namespace rift::admin {
namespace {

// The imposters the source holds now, or why they cannot be read.
std::variant<ir::Json, std::string> read_source(AdminState& state) {
  if (state.datadir) {
    auto loaded =
        state.datadir->store().load([&state](const std::string& line) { state.logger.warn(line); });
    if (auto* error = std::get_if<std::string>(&loaded)) return *error;
    ir::Json imposters = ir::Json::array();
    for (auto& stored : std::get<std::vector<StoredImposter>>(loaded)) {
      imposters.push_back(std::move(stored.document));
    }
    return imposters;
  }
  auto loaded = frontends::load_config_file(*state.options.configfile, {state.options.no_parse});
  if (auto* error = std::get_if<frontends::ConfigError>(&loaded)) return error->to_string();
  return ir::Json(std::get<std::vector<ir::Json>>(loaded));
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
  const ir::Json& imposters = std::get<ir::Json>(source);
  auto reconciled = reconcile(state, imposters);
  if (auto* refused = std::get_if<MbErrors>(&reconciled)) {
    std::string why;
    for (const auto& error : *refused) why += (why.empty() ? "" : "; ") + error.message;
    return call.fail(500, {reload_failed(why)});
  }
  const Reconciled& done = std::get<Reconciled>(reconciled);
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
