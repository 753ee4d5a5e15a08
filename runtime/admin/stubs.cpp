#include "runtime/admin/stubs.h"

#include <charconv>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "frontends/mountebank_json.h"
#include "frontends/rift_block.h"
#include "frontends/rift_script.h"
#include "runtime/datadir/sync.h"

namespace rift::admin {
namespace {

// Parses new stubs for `imposter` (whose `_rift.scripts` a script may name), collecting every
// error.
std::variant<std::vector<ir::Stub>, MbErrors> parse_stubs(const ir::Json& stubs,
                                                          const AdminState& state,
                                                          const Imposter& imposter) {
  std::vector<ir::Stub> parsed;
  MbErrors errors;
  const frontends::ParseOptions options =
      frontends::stub_options(imposter.config(), state.options.allow_injection);
  for (const auto& stub : stubs) {
    auto result = frontends::parse_stub(stub, options);
    if (auto* found = std::get_if<MbErrors>(&result)) {
      errors.insert(errors.end(), found->begin(), found->end());
      continue;
    }
    parsed.push_back(std::get<ir::Stub>(std::move(result)));
  }
  if (!errors.empty()) return errors;
  return parsed;
}

// A proxy recording is a response whose `is._proxyResponseTime` is a number; removing them
// leaves stubs that may be empty, and those go too.
std::optional<MbError> remove_proxy_recordings(Imposter& imposter) {
  auto recorded = [](const ir::Json& response) {
    return response.is_object() && response.contains("is") && response["is"].is_object() &&
           response["is"].contains("_proxyResponseTime") &&
           response["is"]["_proxyResponseTime"].is_number();
  };
  std::vector<ir::Stub> stubs;
  std::vector<int> keep;
  bool changed = false;
  const auto& current = imposter.config().stubs;
  for (size_t i = 0; i < current.size(); ++i) {
    ir::Stub stub = current[i];
    const ir::Json& responses = stub.source["responses"];
    if (!responses.is_array()) {
      stubs.push_back(std::move(stub));
      keep.push_back(static_cast<int>(i));
      continue;
    }
    ir::Json kept_sources = ir::Json::array();
    std::vector<ir::Response> kept;
    for (size_t r = 0; r < responses.size() && r < stub.responses.size(); ++r) {
      if (recorded(responses[r])) {
        changed = true;
        continue;
      }
      kept_sources.push_back(responses[r]);
      kept.push_back(stub.responses[r]);
    }
    if (kept.empty()) continue;
    const bool stub_changed = kept.size() != stub.responses.size();
    stub.source["responses"] = std::move(kept_sources);
    stub.responses = std::move(kept);
    stubs.push_back(std::move(stub));
    keep.push_back(stub_changed ? -1 : static_cast<int>(i));
  }
  if (!changed) return std::nullopt;
  return imposter.set_stubs(std::move(stubs), keep);
}

}  // namespace

// A stub index in a URL: Mountebank looks it up as an array key, so only canonical integers hit.
std::optional<size_t> stub_index(const std::string& text, size_t count) {
  if (text.empty() || (text.size() > 1 && text[0] == '0')) return std::nullopt;
  size_t index = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), index);
  if (error != std::errc() || end != text.data() + text.size() || index >= count)
    return std::nullopt;
  return index;
}

MbError bad_stub_index() {
  return bad_data(
      "'stubIndex' must be a valid integer, representing the array index position of the stub to "
      "replace");
}

std::vector<int> identity(size_t count) {
  std::vector<int> keep(count);
  for (size_t i = 0; i < count; ++i) keep[i] = static_cast<int>(i);
  return keep;
}

std::optional<std::pair<int, MbError>> publish_stubs(AdminState& state, Imposter& imposter,
                                                     std::vector<ir::Stub> stubs,
                                                     const std::vector<int>& keep) {
  if (auto conflict = frontends::duplicate_stub_id(stubs)) return {{409, *conflict}};
  std::vector<ir::Stub> previous;
  if (state.datadir) previous = imposter.config().stubs;
  if (auto error = imposter.set_stubs(std::move(stubs), keep)) return {{400, *error}};
  if (!state.datadir) return std::nullopt;
  auto failed = state.datadir->changed(imposter);
  if (!failed) return std::nullopt;
  state.logger.error("--datadir: " + *failed);
  // Back to the previous stubs, each with its cycle position if the edit had kept it.
  std::vector<int> back(previous.size(), -1);
  for (size_t i = 0; i < keep.size(); ++i) {
    if (keep[i] >= 0) back[static_cast<size_t>(keep[i])] = static_cast<int>(i);
  }
  imposter.set_stubs(std::move(previous), back);
  return {{500, datadir_error(*failed)}};
}

// Publishes the edit and answers with the whole imposter, as Mountebank does for every edit.
void publish_and_answer(AdminState& state, Call& call, std::vector<ir::Stub> stubs,
                        const std::vector<int>& keep) {
  if (auto error = publish_stubs(state, *call.imposter, std::move(stubs), keep)) {
    return call.fail(error->first, {error->second});
  }
  call.send_json_text(
      200, render_imposter_text(*call.imposter, state.render(call, ImposterForm::kFull)));
}

void put_stubs(AdminState& state, Call& call) {
  const ir::Json* stubs =
      call.body.is_object() && call.body.contains("stubs") ? &call.body["stubs"] : nullptr;
  if (stubs == nullptr || stubs->is_null())
    return call.fail(400, {bad_data("'stubs' is a required field")});
  if (!stubs->is_array()) return call.fail(400, {bad_data("'stubs' must be an array")});
  auto parsed = parse_stubs(*stubs, state, *call.imposter);
  if (auto* errors = std::get_if<MbErrors>(&parsed)) return call.fail(400, *errors);
  auto list = std::get<std::vector<ir::Stub>>(std::move(parsed));
  const std::vector<int> fresh(list.size(), -1);
  publish_and_answer(state, call, std::move(list), fresh);
}

void post_stub(AdminState& state, Call& call) {
  const ir::Json body = call.body.is_object() ? call.body : ir::Json::object();
  const size_t count = call.imposter->config().stubs.size();
  MbErrors errors;
  size_t index = count;
  if (body.contains("index")) {
    const ir::Json& value = body["index"];
    const bool valid =
        value.is_number() && value.get<double>() >= 0 &&
        value.get<double>() <= static_cast<double>(count) &&
        value.get<double>() == static_cast<double>(static_cast<size_t>(value.get<double>()));
    if (!valid) {
      errors.push_back(bad_data("'index' must be between 0 and the length of the stubs array"));
    } else {
      index = static_cast<size_t>(value.get<double>());
    }
  }
  if (!body.contains("stub")) errors.push_back(bad_data("must contain 'stub' field"));
  if (!errors.empty()) return call.fail(400, errors);

  auto parsed = parse_stubs(ir::Json::array({body["stub"]}), state, *call.imposter);
  if (auto* found = std::get_if<MbErrors>(&parsed)) return call.fail(400, *found);
  std::vector<ir::Stub> stubs = call.imposter->config().stubs;
  std::vector<int> keep = identity(count);
  stubs.insert(stubs.begin() + static_cast<long>(index),
               std::get<std::vector<ir::Stub>>(parsed)[0]);
  keep.insert(keep.begin() + static_cast<long>(index), -1);
  publish_and_answer(state, call, std::move(stubs), keep);
}

void put_stub(AdminState& state, Call& call) {
  const size_t count = call.imposter->config().stubs.size();
  const auto index = stub_index(call.stub_index, count);
  if (!index) return call.fail(404, {bad_stub_index()});
  auto parsed = parse_stubs(ir::Json::array({call.body}), state, *call.imposter);
  if (auto* found = std::get_if<MbErrors>(&parsed)) return call.fail(400, *found);
  std::vector<ir::Stub> stubs = call.imposter->config().stubs;
  std::vector<int> keep = identity(count);
  stubs[*index] = std::get<std::vector<ir::Stub>>(parsed)[0];
  keep[*index] = -1;  // a replaced stub restarts its response cycle
  publish_and_answer(state, call, std::move(stubs), keep);
}

void delete_stub(AdminState& state, Call& call) {
  const size_t count = call.imposter->config().stubs.size();
  const auto index = stub_index(call.stub_index, count);
  if (!index) return call.fail(404, {bad_stub_index()});
  std::vector<ir::Stub> stubs = call.imposter->config().stubs;
  std::vector<int> keep = identity(count);
  stubs.erase(stubs.begin() + static_cast<long>(*index));
  keep.erase(keep.begin() + static_cast<long>(*index));
  publish_and_answer(state, call, std::move(stubs), keep);
}

void delete_saved_proxy_responses(AdminState& state, Call& call) {
  if (!call.negotiate()) return;
  Imposter& imposter = *call.imposter;
  // Removing recordings always removes responses: a count tells whether to save.
  auto responses = [&imposter] {
    size_t count = 0;
    for (const auto& stub : imposter.config().stubs) count += stub.responses.size();
    return count;
  };
  const size_t before = responses();
  if (auto error = remove_proxy_recordings(imposter)) return call.fail(400, {*error});
  const bool changed = responses() != before;
  if (state.datadir && changed && !state.saved(call, state.datadir->changed(imposter))) return;
  call.send_json_text(200, render_imposter_text(imposter, state.render(call, ImposterForm::kFull)));
}

}  // namespace rift::admin
