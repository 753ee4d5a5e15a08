#include "runtime/imposter/script_reply.h"

#include "compiler/ascii.h"
#include "compiler/base64.h"
#include "compiler/route_pattern.h"
#include "compiler/text_encoding.h"
#include "runtime/http/query_string.h"

namespace rift {
ir::Json error_document(const std::string& code, const std::string& type,
                        const std::string& message) {
  return ir::Json{
      {"errors", ir::Json::array({{{"code", code}, {"type", type}, {"message", message}}})}};
}

namespace {

ir::Json text_or_null(const std::optional<std::string>& text) {
  return text ? ir::Json(*text) : ir::Json();
}

// JSON text for the prelude; a store that failed is the script's error (fail loud).
std::string answer(const flow_state::Result<ir::Json>& result) {
  if (const auto* error = std::get_if<flow_state::StoreError>(&result)) {
    const bool down = error->kind == flow_state::StoreError::Kind::kUnavailable;
    return ir::Json{{"error", (down ? "backend unavailable: " : "") + error->detail}}.dump();
  }
  return std::get<ir::Json>(result).dump(-1, ' ', false, ir::Json::error_handler_t::replace);
}

template <typename T, typename F>
flow_state::Result<ir::Json> then(flow_state::Result<T> result, F&& shape) {
  if (auto* error = std::get_if<flow_state::StoreError>(&result)) return *error;
  return shape(std::get<T>(std::move(result)));
}

flow_state::Result<ir::Json> value(ir::Json json) {
  return ir::Json{{"value", std::move(json)}};
}

flow_state::Result<ir::Json> run(flow_state::FlowStore& store, const ir::Json& call) {
  const std::string op = call.value("op", "");
  const std::string flow = call.value("flow", "");
  const std::string key = call.value("key", "");
  if (op == "get") {
    return then(store.get(flow, key), [](std::optional<ir::Json> found) {
      return ir::Json{{"value", found ? *found : ir::Json()}, {"present", found.has_value()}};
    });
  }
  if (op == "set") {
    return then(store.set(flow, key, call.value("value", ir::Json())), [](flow_state::Done) {
      return ir::Json{{"value", true}};
    });
  }
  if (op == "delete") {
    return then(store.remove(flow, key), [](bool) { return ir::Json{{"value", true}}; });
  }
  if (op == "incrBy") {
    const int64_t n = call.value("n", int64_t{0});
    auto sum = store.incr_by(flow, key, n);
    if (auto* error = std::get_if<flow_state::StoreError>(&sum);
        error && error->kind == flow_state::StoreError::Kind::kBadValue) {
      // The reference counts a stored value that is not a whole number as 0.
      return then(store.set(flow, key, n), [n](flow_state::Done) {
        return ir::Json{{"value", n}};
      });
    }
    return then(std::move(sum), [](int64_t total) { return ir::Json{{"value", total}}; });
  }
  if (op == "cas") {
    std::optional<ir::Json> expected;
    if (auto it = call.find("expected"); it != call.end()) expected = *it;
    auto applied = store.compare_and_set(flow, key, expected, call.value("value", ir::Json()));
    if (auto* error = std::get_if<flow_state::StoreError>(&applied)) return *error;
    if (std::get<bool>(applied)) {
      return value(ir::Json{{"applied", true}, {"current", nullptr}});
    }
    return then(store.get(flow, key), [](std::optional<ir::Json> current) {
      return ir::Json{
          {"value", {{"applied", false}, {"current", current ? *current : ir::Json()}}}};
    });
  }
  if (op == "ttl") {
    return then(store.expire(flow, key, call.value("seconds", int64_t{0})), [](bool live) {
      return ir::Json{{"value", live}};
    });
  }
  if (op == "ttlFlow") {
    return then(store.expire_flow(flow, call.value("seconds", int64_t{0})), [](flow_state::Done) {
      return ir::Json{{"value", true}};
    });
  }
  if (op == "clear") {
    return then(store.clear(flow), [](flow_state::Done) { return ir::Json{{"value", true}}; });
  }
  return ir::Json{{"error", "unknown state call " + op}};
}

}  // namespace

ir::Json script_ctx(const Request& request, std::string_view target, std::string_view wire_body,
                    const ir::Stub& stub) {
  ir::Json headers = ir::Json::object();
  for (const auto& [name, text] : request.headers) headers[ascii::lower(name)] = text;
  ir::Json query = ir::Json::object();
  const size_t question = target.find('?');
  std::string raw_query(question == std::string_view::npos ? std::string_view()
                                                           : target.substr(question + 1));
  // The reference decodes %xx but keeps '+' (Node's querystring, and so Mountebank, read a space).
  for (size_t at = raw_query.find('+'); at != std::string::npos; at = raw_query.find('+', at)) {
    raw_query.replace(at, 1, "%2B");
  }
  for (const auto& [name, text] : http::parse_query_string(raw_query)) {
    auto it = query.find(name);
    if (it == query.end()) {
      query[name] = text;
    } else {
      *it = it->get<std::string>() + "," + text;
    }
  }
  const std::string& bytes = request.body ? *request.body : std::string();
  // Request.body is already UTF-8 (invalid bytes replaced); the reference hands a binary body
  // over as base64 of the bytes received, unless they were compressed.
  const bool binary = find_ignoring_case(request.headers, "content-encoding") == nullptr &&
                      to_valid_utf8(wire_body) != wire_body;
  ir::Json json = ir::Json::parse(bytes, nullptr, false);
  if (json.is_discarded()) json = nullptr;
  std::optional<std::string> state = stub.new_scenario_state;
  if (!state && stub.scenario_name) state = stub.required_scenario_state;
  return ir::Json{
      {"request",
       {{"method", request.method},
        {"path", request.path},
        {"query", std::move(query)},
        {"headers", std::move(headers)},
        {"body", binary ? base64_encode(wire_body) : bytes},
        {"json", std::move(json)},
        {"pathParams", stub.route_pattern ? route_params(*stub.route_pattern, request.path)
                                          : ir::Json::object()}}},
      {"flowId", request.flow_id},
      {"stub",
       {{"id", text_or_null(stub.id)},
        {"scenarioName", text_or_null(stub.scenario_name)},
        {"scenarioState", text_or_null(state)}}}};
}

std::function<std::string(std::string_view)> script_state_bridge(
    std::shared_ptr<flow_state::FlowStore> store) {
  return [store = std::move(store)](std::string_view text) {
    // A script can call __riftState itself with anything: a call of the wrong shape is the
    // script's error, never an exception through SpiderMonkey's frames.
    const ir::Json call = ir::Json::parse(text, nullptr, false);
    if (!call.is_object()) return ir::Json{{"error", "unreadable state call"}}.dump();
    try {
      return answer(run(*store, call));
    } catch (const ir::Json::exception& error) {
      return ir::Json{{"error", std::string("bad state call: ") + error.what()}}.dump();
    }
  };
}

namespace {

ScriptAnswer build_error() {
  ScriptAnswer out;
  out.is = {{"statusCode", 500},
            {"headers", {{"Content-Type", "application/json"}}},
            {"body", error_document("500", "internal error", "Response build error").dump(2)}};
  return out;
}

ScriptAnswer answer_of(const script::Outcome& outcome, std::string_view engine);

}  // namespace

// A script can tamper with a result object (`r.status = "x"`, `r.headers = [[1]]`) before
// returning it: what does not have the shape of a response is the reference's build error.
ScriptAnswer script_answer(const script::Outcome& outcome, std::string_view engine) {
  try {
    return answer_of(outcome, engine);
  } catch (const ir::Json::exception&) {
    return build_error();
  }
}

namespace {

ScriptAnswer answer_of(const script::Outcome& outcome, std::string_view engine) {
  ScriptAnswer out;
  if (const auto* error = std::get_if<script::ScriptError>(&outcome)) {
    ir::Json headers = {{"x-rift-script-error", "true"}};
    if (error->timed_out) {
      headers["x-rift-script-timeout"] = "true";
      headers["Content-Type"] = "application/json";
      out.is = {
          {"statusCode", 504},
          {"headers", std::move(headers)},
          {"body",
           error_document("504", "script timeout", "Script timeout: " + error->message).dump(2)}};
    } else {
      headers["Content-Type"] = "application/json";
      out.is = {{"statusCode", 500},
                {"headers", std::move(headers)},
                {"body",
                 error_document("500", "script error", "Script error: " + error->message).dump(2)}};
    }
    return out;
  }
  const ir::Json& result = std::get<ir::Json>(outcome);
  const std::string kind = result.value("kind", "pass");
  ir::Json headers = ir::Json::object();
  if (kind == "reset") {
    out.reset = true;
    return out;
  }
  if (kind == "http") {
    const ir::Json& code = result.at("status");
    const int status = code.is_number_integer() ? code.get<int>() : 0;
    if (status < 100 || status > 999) return build_error();
    bool typed = false;
    for (const auto& pair : result.value("headers", ir::Json::array())) {
      const std::string name = pair.at(0).get<std::string>();
      typed = typed || ascii::iequals(name, "content-type");
      headers[name] = pair.at(1);
    }
    std::string body;
    if (auto text = result.find("text"); text != result.end()) {
      body = text->get<std::string>();
    } else if (auto json = result.find("json"); json != result.end()) {
      body = canonical_json(*json);
      if (!typed) headers["Content-Type"] = "application/json";
    }
    headers["x-rift-script"] = std::string(engine);
    out.is = {{"statusCode", status}, {"headers", std::move(headers)}, {"body", std::move(body)}};
    return out;
  }
  headers["x-rift-script"] = std::string(engine);
  if (kind == "delay") {
    out.delay = std::chrono::milliseconds(result.value("ms", int64_t{0}));
    headers["x-rift-latency-ms"] = std::to_string(out.delay.count());
  }
  out.is = {{"statusCode", 200}, {"headers", std::move(headers)}, {"body", ""}};
  return out;
}

}  // namespace

std::chrono::milliseconds script_time_limit(const ir::Imposter& config) {
  constexpr std::chrono::milliseconds kDefault{5000};
  if (!config.rift || !config.rift->is_object()) return kDefault;
  auto engine = config.rift->find("scriptEngine");
  if (engine == config.rift->end() || !engine->is_object()) return kDefault;
  auto limit = engine->find("timeoutMs");
  if (limit == engine->end() || !limit->is_number_unsigned()) return kDefault;
  return std::chrono::milliseconds(limit->get<uint64_t>());
}

}  // namespace rift
