#include "runtime/admin/spaces.h"

#include <string>
#include <variant>
#include <vector>

#include "frontends/mountebank_json.h"
#include "frontends/rift_block.h"
#include "frontends/rift_script.h"
#include "runtime/admin/path_segment.h"
#include "runtime/admin/scenarios.h"
#include "runtime/admin/stubs.h"

namespace rift::admin {
namespace {

// The :space segment, percent-decoded as Express decodes route parameters (so an id with a
// slash or a space can be named), and checked as a stub's `space` is. The reference Rift takes
// the segment as it is (docs/rift-compatibility.md).
std::variant<std::string, MbError> space_id(const Call& call) {
  auto id = decoded_segment(call.space, "space id");
  if (auto* error = std::get_if<MbError>(&id)) return *error;
  if (auto error = frontends::space_id_error(std::get<std::string>(id))) return *error;
  return id;
}

ir::Json space_stubs(const Imposter& imposter, const std::string& id) {
  ir::Json stubs = ir::Json::array();
  for (const auto& stub : imposter.config().stubs) {
    if (stub.space == id) stubs.push_back(stub.source);
  }
  return stubs;
}

JournalFilter in_space(const std::string& id) {
  return [id](const Request& request) { return request.flow_id == id; };
}

}  // namespace

void post_space_stub(AdminState& state, Call& call) {
  auto id = space_id(call);
  if (auto* error = std::get_if<MbError>(&id)) return call.fail(400, {*error});
  const std::string& space = std::get<std::string>(id);
  if (!call.body.is_object()) return call.fail(400, {bad_data("the body must be one stub")});
  ir::Json body = call.body;
  body["space"] = space;
  auto parsed = frontends::parse_stub(
      body, frontends::stub_options(call.imposter->config(), state.options.allow_injection));
  if (auto* errors = std::get_if<MbErrors>(&parsed)) return call.fail(400, *errors);

  Imposter& imposter = *call.imposter;
  std::vector<ir::Stub> stubs = imposter.config().stubs;
  std::vector<int> keep = identity(stubs.size());
  stubs.push_back(std::get<ir::Stub>(std::move(parsed)));
  keep.push_back(-1);
  if (auto error = publish_stubs(state, imposter, std::move(stubs), keep)) {
    return call.fail(error->first, {error->second});
  }
  call.send(201, ir::Json{{"space", space}, {"stubs", space_stubs(imposter, space)}});
}

void get_space_stubs(AdminState&, Call& call) {
  auto id = space_id(call);
  if (auto* error = std::get_if<MbError>(&id)) return call.fail(400, {*error});
  const std::string& space = std::get<std::string>(id);
  call.send(200, ir::Json{{"space", space}, {"stubs", space_stubs(*call.imposter, space)}});
}

void get_space(AdminState&, Call& call) {
  auto id = space_id(call);
  if (auto* error = std::get_if<MbError>(&id)) return call.fail(400, {*error});
  const std::string& space = std::get<std::string>(id);
  ir::Json out = ir::Json::object();
  out["space"] = space;
  out["stubs"] = space_stubs(*call.imposter, space);
  auto scenarios = scenario_states(*call.imposter, space);
  if (!store_succeeded(call, scenarios)) return;
  out["scenarios"] = std::get<ir::Json>(std::move(scenarios));
  out["numberOfRequests"] = call.imposter->count_recorded_requests(in_space(space));
  call.send(200, out);
}

void delete_space(AdminState& state, Call& call) {
  auto id = space_id(call);
  if (auto* error = std::get_if<MbError>(&id)) return call.fail(400, {*error});
  const std::string& space = std::get<std::string>(id);
  Imposter& imposter = *call.imposter;
  // First, while the space's own stubs still name their scenarios; a store that fails here
  // leaves the space as it was.
  if (!store_succeeded(call, reset_scenarios(imposter, space))) return;
  std::vector<ir::Stub> stubs;
  std::vector<int> keep;
  const auto& current = imposter.config().stubs;
  for (size_t i = 0; i < current.size(); ++i) {
    if (current[i].space == space) continue;
    stubs.push_back(current[i]);
    keep.push_back(static_cast<int>(i));
  }
  if (stubs.size() != current.size()) {
    if (auto error = publish_stubs(state, imposter, std::move(stubs), keep)) {
      return call.fail(error->first, {error->second});
    }
  }
  imposter.remove_recorded_requests(in_space(space));
  call.send(200, ir::Json{{"space", space}, {"tornDown", true}});
}

}  // namespace rift::admin
