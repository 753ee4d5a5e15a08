#include "runtime/admin/imposters.h"

#include <string>
#include <vector>

#include "frontends/mountebank_json.h"
#include "runtime/admin/reconcile.h"
#include "runtime/datadir/sync.h"

namespace rift::admin {
namespace {

ir::Json list_of(AdminState& state, const RenderOptions& render) {
  ir::Json list = ir::Json::array();
  for (const auto& imposter : state.registry.list()) {
    list.push_back(render_imposter(*imposter, render));
  }
  return ir::Json{{"imposters", list}};
}

}  // namespace

void log_open(AdminState& state, const Imposter& imposter) {
  state.logger.info("[" + imposter.config().protocol + ":" + std::to_string(imposter.port()) +
                    "] Open for business...");
}

void get_imposters(AdminState& state, Call& call) {
  if (!call.negotiate()) return;
  const bool remove_proxies = call.flag("removeProxies");
  const ImposterForm form = call.flag("replayable") ? ImposterForm::kReplayable
                            : remove_proxies        ? ImposterForm::kFull
                                                    : ImposterForm::kList;
  call.send(200, list_of(state, state.render(call, form, remove_proxies)));
}

void post_imposter(AdminState& state, Call& call) {
  // The stubs are moved out of the body, not copied: a 10,000-stub body is megabytes of JSON
  // tree. What stays (the imposter's settings) is all --datadir keeps of it.
  if (!call.body.is_object()) call.body = ir::Json::object();
  auto parsed = frontends::parse_imposter_moving_stubs(call.body, {state.options.allow_injection});
  const ir::Json& body = call.body;
  if (auto* errors = std::get_if<MbErrors>(&parsed)) {
    state.logger.error("error creating imposter: " + errors_body(*errors).dump());
    return call.fail(refusal_status(*errors), *errors);
  }
  auto added = state.registry.add(std::get<ir::Imposter>(std::move(parsed)));
  if (auto* error = std::get_if<MbError>(&added)) {
    state.logger.error("error creating imposter: " + error->to_json().dump());
    return call.fail(error->code == "insufficient access" ? 403 : 400, {*error});
  }
  const auto& imposter = std::get<std::shared_ptr<Imposter>>(added);
  if (state.datadir) {
    if (auto failed = state.datadir->created(*imposter, body)) {
      // Not acknowledged, so not kept: a retry must find the port free.
      state.registry.remove(imposter->port());
      state.datadir->removed(imposter->port());
      state.saved(call, failed);
      return;
    }
  }
  log_open(state, *imposter);
  state.announce(events::Action::created, imposter->port());
  call.send_json_text(
      201, render_imposter_text(*imposter, state.render(call, ImposterForm::kFull)),
      {{"Location", call.base_url + "/imposters/" + std::to_string(imposter->port())}});
}

std::optional<ir::Json> replace_all(AdminState& state, const ir::Json& imposters) {
  auto reconciled = reconcile(state, imposters);
  if (auto* refused = std::get_if<MbErrors>(&reconciled)) return errors_body(*refused);
  return std::get<Reconciled>(reconciled).failure;
}

std::optional<ir::Json> restore(AdminState& state, const ir::Json& document) {
  auto parsed = frontends::parse_imposter(document, {state.options.allow_injection});
  if (auto* errors = std::get_if<MbErrors>(&parsed)) return errors_body(*errors);
  auto added = state.registry.add(std::get<ir::Imposter>(std::move(parsed)));
  if (auto* error = std::get_if<MbError>(&added)) return errors_body({*error});
  const auto& imposter = std::get<std::shared_ptr<Imposter>>(added);
  if (state.datadir) state.datadir->loaded(*imposter, document);
  log_open(state, *imposter);
  return std::nullopt;
}

void put_imposters(AdminState& state, Call& call) {
  if (!call.body.is_object() || !call.body.contains("imposters")) {
    return call.fail(400, {bad_data("'imposters' is a required field")});
  }
  auto reconciled = reconcile(state, call.body["imposters"]);
  if (auto* refused = std::get_if<MbErrors>(&reconciled)) {
    return call.fail(refusal_status(*refused), *refused);
  }
  // A change that failed after others applied: Mountebank's 400 for a port in use, 500 for a
  // --datadir write.
  if (const auto& failure = std::get<Reconciled>(reconciled).failure) {
    return call.send((*failure)["errors"][0]["code"] == "datadir error" ? 500 : 400, *failure);
  }
  call.send(200, list_of(state, state.render(call, ImposterForm::kList)));
}

void delete_imposters(AdminState& state, Call& call) {
  const ImposterForm form =
      call.flag_not_false("replayable") ? ImposterForm::kReplayable : ImposterForm::kFull;
  const RenderOptions render = state.render(call, form, call.flag("removeProxies"));
  ir::Json list = ir::Json::array();
  std::optional<std::string> failure;
  for (const auto& imposter : state.registry.list()) {
    list.push_back(render_imposter(*imposter, render));
    const int port = imposter->port();
    state.registry.remove(port);
    if (!state.datadir) continue;
    if (auto failed = state.datadir->removed(port); failed && !failure) failure = failed;
  }
  state.announce(events::Action::all_deleted, std::nullopt);
  if (!state.saved(call, failure)) return;
  call.send(200, ir::Json{{"imposters", list}});
}

void get_imposter(AdminState& state, Call& call) {
  if (!call.negotiate()) return;
  const ImposterForm form =
      call.flag("replayable") ? ImposterForm::kReplayable : ImposterForm::kFull;
  call.send_json_text(
      200,
      render_imposter_text(*call.imposter, state.render(call, form, call.flag("removeProxies"))));
}

void delete_imposter(AdminState& state, Call& call) {
  const auto port = call.port;
  auto imposter = port ? state.registry.find(*port) : nullptr;
  if (!imposter) return call.send(200, ir::Json::object());
  const ImposterForm form =
      call.flag("replayable") ? ImposterForm::kReplayable : ImposterForm::kFull;
  const std::string text =
      render_imposter_text(*imposter, state.render(call, form, call.flag("removeProxies")));
  state.registry.remove(*port);
  state.announce(events::Action::deleted, *port);
  if (state.datadir && !state.saved(call, state.datadir->removed(*port))) return;
  call.send_json_text(200, text);
}

}  // namespace rift::admin
