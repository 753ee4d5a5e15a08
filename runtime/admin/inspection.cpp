#include "runtime/admin/inspection.h"

#include "compiler/analysis.h"
#include "compiler/explain.h"
#include "compiler/plan_render.h"
#include "runtime/http/request_builder.h"
#include "runtime/imposter/flow_id.h"
#include "runtime/imposter/scenario_reader.h"

namespace rift {
namespace {

std::string percent_encode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// The tier in service and where it came from first, then the view.
ir::Json with_tier_first(const PlanSnapshot& snapshot, const ir::Json& view) {
  ir::Json out = ir::Json::object();
  out["tier"] = snapshot.matcher->tier();
  out["planVersion"] = snapshot.version;
  if (snapshot.code_bytes > 0) {
    out["compileMillis"] = snapshot.compile_ms;
    out["codeBytes"] = snapshot.code_bytes;
  }
  for (const auto& [key, value] : view.items()) out[key] = value;
  return out;
}

}  // namespace

ir::Json plan_view(const Imposter& imposter) {
  const auto snapshot = imposter.snapshot();
  const auto& stubs = snapshot->config->stubs;
  return with_tier_first(*snapshot, plan_to_json(*snapshot->tree, stubs, analysis::analyze(stubs)));
}

std::variant<ir::Json, MbError> explain_view(const Imposter& imposter, const ir::Json& body) {
  if (!body.is_object()) return bad_data("the request to explain must be a JSON object");
  http::Message message;
  const ir::Json method = body.value("method", ir::Json("GET"));
  const ir::Json path = body.value("path", ir::Json("/"));
  if (!method.is_string()) return bad_data("'method' must be a string");
  if (!path.is_string() || path.get<std::string>().empty() || path.get<std::string>()[0] != '/') {
    return bad_data("'path' must be a string starting with '/'");
  }
  message.method = method.get<std::string>();
  for (char& c : message.method) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  message.target = path.get<std::string>();
  if (body.contains("query")) {
    if (!body["query"].is_object()) return bad_data("'query' must be an object");
    char separator = message.target.find('?') == std::string::npos ? '?' : '&';
    for (const auto& [key, value] : body["query"].items()) {
      const ir::Json values = value.is_array() ? value : ir::Json::array({value});
      for (const auto& one : values) {
        message.target += separator;
        separator = '&';
        message.target += percent_encode(key) + "=" +
                          percent_encode(one.is_string() ? one.get<std::string>() : one.dump());
      }
    }
  }
  if (body.contains("headers")) {
    if (!body["headers"].is_object()) return bad_data("'headers' must be an object");
    for (const auto& [name, value] : body["headers"].items()) {
      const ir::Json values = value.is_array() ? value : ir::Json::array({value});
      for (const auto& one : values) {
        message.headers.emplace_back(name, one.is_string() ? one.get<std::string>() : one.dump());
      }
    }
  }
  if (body.contains("body")) {
    message.body = body["body"].is_string() ? body["body"].get<std::string>() : body["body"].dump();
  }
  message.remote_address = "127.0.0.1";
  Request request = http::build_request(message);
  const auto snapshot = imposter.snapshot();
  // The flow id the imposter would give this request, so a space's stubs are explained too.
  assign_flow_id(snapshot->config->flow_id_source, imposter.port(), request);
  // The flow's scenario states as they stand (read, never advanced).
  ScenarioReader scenarios(*imposter.flow_store(), request.flow_id);
  ExplainOptions options;
  options.scenarios = &scenarios;
  return with_tier_first(*snapshot,
                         explain(*snapshot->tree, snapshot->config->stubs, request, options));
}

namespace admin {

void get_plan(AdminState&, Call& call) {
  call.send(200, plan_view(*call.imposter));
}

void post_explain(AdminState&, Call& call) {
  auto report = explain_view(*call.imposter, call.body);
  if (auto* error = std::get_if<MbError>(&report)) return call.fail(400, {*error});
  call.send(200, std::get<ir::Json>(report));
}

}  // namespace admin

}  // namespace rift
