#include "runtime/admin/stub_ids.h"

#include <string>
#include <variant>
#include <vector>

#include "frontends/mountebank_json.h"
#include "frontends/rift_script.h"
#include "runtime/admin/path_segment.h"
#include "runtime/admin/stubs.h"
#include "runtime/datadir/sync.h"
#include "runtime/imposter/views.h"

namespace rift::admin {
namespace {

// The position of the stub :stubId names, or nullopt once the call has its 400 or 404.
std::optional<size_t> find_by_id(Call& call) {
  auto id = decoded_segment(call.stub_id, "stub id");
  if (auto* error = std::get_if<MbError>(&id)) {
    call.fail(400, {*error});
    return std::nullopt;
  }
  const auto& stubs = call.imposter->config().stubs;
  for (size_t i = 0; i < stubs.size(); ++i) {
    if (stubs[i].id == std::get<std::string>(id)) return i;
  }
  call.fail(404,
            {MbError{"no such resource", "No stub with id '" + std::get<std::string>(id) + "'"}});
  return std::nullopt;
}

void set_enabled(AdminState& state, Call& call, bool enabled) {
  Imposter& imposter = *call.imposter;
  const bool was = imposter.enabled();
  imposter.set_enabled(enabled);
  if (state.datadir) {
    auto failed = state.datadir->changed(imposter);
    if (failed) imposter.set_enabled(was);
    if (!state.saved(call, failed)) return;
  }
  call.send(200, ir::Json{{"message", enabled ? "Imposter enabled" : "Imposter disabled"}});
}

}  // namespace

void get_stubs(AdminState& state, Call& call) {
  ir::Json imposter = render_imposter(*call.imposter, state.render(call, ImposterForm::kFull));
  call.send(200, ir::Json{{"stubs", std::move(imposter["stubs"])}});
}

void get_stub(AdminState& state, Call& call) {
  const auto& stubs = call.imposter->config().stubs;
  const auto index = stub_index(call.stub_index, stubs.size());
  if (!index) {
    return call.fail(404,
                     {MbError{"no such resource", "Stub index " + call.stub_index + " not found"}});
  }
  ir::Json stub = stubs[*index].source;
  stub["_links"] = {
      {"self",
       {{"href", state.render(call, ImposterForm::kFull).base_url + "/imposters/" +
                     std::to_string(call.imposter->port()) + "/stubs/" + std::to_string(*index)}}}};
  call.send(200, stub);
}

void get_stub_by_id(AdminState&, Call& call) {
  if (auto index = find_by_id(call)) call.send(200, call.imposter->config().stubs[*index].source);
}

void put_stub_by_id(AdminState& state, Call& call) {
  const auto index = find_by_id(call);
  if (!index) return;
  std::vector<ir::Stub> stubs = call.imposter->config().stubs;
  // The path names the stub: its id stays, whatever the body says.
  ir::Json body = call.body.is_object() ? call.body : ir::Json::object();
  body["id"] = *stubs[*index].id;
  auto parsed = frontends::parse_stub(
      body, frontends::stub_options(call.imposter->config(), state.options.allow_injection));
  if (auto* errors = std::get_if<MbErrors>(&parsed)) return call.fail(400, *errors);
  stubs[*index] = std::get<ir::Stub>(std::move(parsed));
  std::vector<int> keep = identity(stubs.size());  // its response cycle goes on, as elsewhere
  publish_and_answer(state, call, std::move(stubs), keep);
}

void delete_stub_by_id(AdminState& state, Call& call) {
  const auto index = find_by_id(call);
  if (!index) return;
  std::vector<ir::Stub> stubs = call.imposter->config().stubs;
  std::vector<int> keep = identity(stubs.size());
  stubs.erase(stubs.begin() + static_cast<long>(*index));
  keep.erase(keep.begin() + static_cast<long>(*index));
  publish_and_answer(state, call, std::move(stubs), keep);
}

void post_enable(AdminState& state, Call& call) {
  set_enabled(state, call, true);
}
void post_disable(AdminState& state, Call& call) {
  set_enabled(state, call, false);
}

}  // namespace rift::admin
