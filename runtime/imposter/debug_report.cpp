#include "runtime/imposter/debug_report.h"

#include "compiler/ascii.h"
#include "compiler/base64.h"
#include "compiler/canonical_json.h"
#include "compiler/explain.h"
#include "compiler/js_value.h"
#include "compiler/matcher.h"
#include "compiler/text_encoding.h"

namespace rift {
namespace {

constexpr size_t kBodyPreview = 500;
constexpr std::string_view kHeader = "x-rift-debug";

// `content-TYPE` -> `Content-Type`, as the reference names headers in its debug answer.
std::string title_case(std::string_view name) {
  std::string out = ascii::lower(name);
  bool start = true;
  for (char& c : out) {
    if (start && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    start = c == '-';
  }
  return out;
}

// The first `limit` bytes, cut back to a whole UTF-8 character, then `...`.
std::string preview(std::string text, size_t limit) {
  if (text.size() <= limit) return text;
  size_t end = limit;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  text.resize(end);
  return text + "...";
}

ir::Json request_view(const http::Message& message, const Request& request) {
  ir::Json headers = ir::Json::object();
  for (const auto& [name, value] : message.headers) {  // a repeated header: its last value
    if (!ascii::iequals(name, kHeader)) headers[title_case(name)] = value;
  }
  ir::Json out = {{"method", request.method}, {"path", request.path}};
  const std::string_view target = message.target;
  const size_t question = target.find('?');
  if (question != std::string_view::npos && question + 1 < target.size()) {
    out["query"] = std::string(target.substr(question + 1));
  }
  out["headers"] = std::move(headers);
  if (!message.body.empty()) {
    const bool text = to_valid_utf8(message.body) == message.body;
    out["body"] = text ? message.body : base64_encode(message.body);
  }
  return out;
}

ir::Json imposter_view(const ir::Imposter& config) {
  ir::Json out = {{"port", config.port.value_or(0)}};
  if (config.name) out["name"] = *config.name;
  out["protocol"] = config.protocol;
  out["stubCount"] = config.stubs.size();
  return out;
}

// What the response would be, as the reference previews it: an `is` by its status, headers and
// body; the others by a line saying what they would do.
ir::Json response_preview(const ir::Response& response) {
  switch (response.kind) {
    case ir::ResponseKind::kProxy:
      return {
          {"responseType", "proxy"},
          {"bodyPreview", "Proxy to: " + js::to_string(response.value.value("to", ir::Json()))}};
    case ir::ResponseKind::kInject:
      return {{"responseType", "inject"},
              {"bodyPreview", "JavaScript inject: " + preview(js::to_string(response.value), 50)}};
    case ir::ResponseKind::kFault:
      return {{"responseType", "fault"},
              {"bodyPreview", "Fault: " + js::to_string(response.value)}};
    case ir::ResponseKind::kScript:
      return {{"responseType", "_rift"}, {"bodyPreview", "Rift script response"}};
    case ir::ResponseKind::kIs:
      break;
  }
  const ir::Json& is = response.value;
  ir::Json out = {{"responseType", "is"}};
  int status = 200;
  if (auto it = is.find("statusCode"); it != is.end()) {
    auto number = js::parse_int(js::to_string(*it));
    if (number && *number >= 100 && *number < 1000) status = static_cast<int>(*number);
  }
  out["statusCode"] = status;
  if (auto it = is.find("headers"); it != is.end() && it->is_object() && !it->empty()) {
    ir::Json headers = ir::Json::object();
    for (const auto& [name, value] : it->items()) {
      std::string text;
      if (value.is_array()) {
        for (const auto& one : value) text += (text.empty() ? "" : ", ") + js::to_string(one);
      } else {
        text = js::to_string(value);
      }
      headers[name] = std::move(text);
    }
    out["headers"] = std::move(headers);
  }
  if (auto it = is.find("body"); it != is.end() && !it->is_null()) {
    out["bodyPreview"] =
        preview(it->is_string() ? it->get<std::string>() : canonical_json(*it), kBodyPreview);
  }
  return out;
}

ir::Json predicates_of(const ir::Stub& stub) {
  auto it = stub.source.find("predicates");
  return it != stub.source.end() ? *it : ir::Json::array();
}

}  // namespace

bool asks_for_debug(const KeyValues& headers) {
  const std::string* value = nullptr;  // sent twice: the last one decides, as in the reference
  for (const auto& [name, given] : headers) {
    if (name.size() == kHeader.size() && ascii::iequals(name, kHeader)) value = &given;
  }
  return value != nullptr && (ascii::iequals(*value, "true") || *value == "1");
}

ir::Json debug_report(const PlanSnapshot& snapshot, const http::Message& message,
                      const Request& request, int matched, ScenarioStates* scenarios) {
  const ir::Imposter& config = *snapshot.config;
  ir::Json result = {{"matched", matched != kNoMatch}};
  if (matched != kNoMatch) {
    const size_t index = static_cast<size_t>(matched);
    const ir::Stub& stub = config.stubs[index];
    result["stubIndex"] = index;
    if (stub.id) result["stubId"] = *stub.id;
    result["predicates"] = predicates_of(stub);
    const StubPlan& plan = snapshot.stubs[index];
    result["responsePreview"] = plan.responses.empty() ? ir::Json{{"responseType", "unknown"}}
                                                       : response_preview(*plan.peek().response);
  } else {
    ExplainOptions options;
    options.near_misses = config.stubs.size();
    options.scenarios = scenarios;
    const ir::Json report = explain(*snapshot.tree, config.stubs, request, options);
    std::vector<const ir::Json*> failed(config.stubs.size(), nullptr);
    if (auto misses = report.find("nearMisses"); misses != report.end()) {
      for (const auto& miss : *misses) {
        const size_t stub = miss.value("stub", size_t{0});
        auto clause = miss.find("failedClause");
        if (stub < failed.size() && clause != miss.end()) failed[stub] = &*clause;
      }
    }
    ir::Json stubs = ir::Json::array();
    for (size_t i = 0; i < config.stubs.size(); ++i) {
      const ir::Stub& stub = config.stubs[i];
      ir::Json entry = {{"index", i}};
      if (stub.id) entry["id"] = *stub.id;
      entry["predicates"] = predicates_of(stub);
      entry["responseCount"] = stub.responses.size();
      // Beyond the reference: the first clause of the stub the request failed (docs/explain.md).
      if (failed[i] != nullptr) entry["failedClause"] = *failed[i];
      stubs.push_back(std::move(entry));
    }
    result["allStubs"] = std::move(stubs);
    result["reason"] = config.stubs.empty() ? "No stubs configured for this imposter"
                                            : "No stub predicates matched the request";
  }
  return {{"debug", true},
          {"request", request_view(message, request)},
          {"imposter", imposter_view(config)},
          {"matchResult", std::move(result)}};
}

}  // namespace rift
