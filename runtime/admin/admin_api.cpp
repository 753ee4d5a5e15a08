#include "runtime/admin/admin_api.h"

#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <map>

#include "compiler/ascii.h"
#include "frontends/json_text.h"
#include "frontends/mountebank_json.h"
#include "runtime/admin/inspection.h"
#include "runtime/base/status_text.h"
#include "runtime/datadir/sync.h"
#include "runtime/imposter/response_renderer.h"
#include "runtime/imposter/tls.h"
#include "runtime/imposter/views.h"
#include "runtime/tiering/tiering.h"

namespace rift {
namespace {

constexpr const char* kNoSuchResource = "Try POSTing to /imposters first?";

std::optional<MbError> remove_proxy_recordings(Imposter& imposter);  // defined with the stub edits

using ascii::iequals;
using ascii::lower;

std::optional<std::string> header(const http::Message& message, std::string_view name) {
  for (const auto& [key, value] : message.headers) {
    if (iequals(key, name)) return value;
  }
  return std::nullopt;
}

std::string percent_decode(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+') {
      out += ' ';
    } else if (text[i] == '%' && i + 2 < text.size() &&
               std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
               std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
      out += static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

std::vector<std::string> split_path(std::string_view path) {
  std::vector<std::string> parts;
  size_t start = 1;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    if (slash > start) parts.emplace_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return parts;
}

// DELETE /imposters, DELETE /imposters/:port and PUT /imposters: the calls that free whole
// imposters. Stub edits are left out: they free little and come often (bench/jit.py edits).
bool drops_imposters(const std::string& method, const std::string& path) {
  if (path == "/imposters") return method == "DELETE" || method == "PUT";
  constexpr std::string_view kOne = "/imposters/";
  return method == "DELETE" && path.starts_with(kOne) &&
         path.find('/', kOne.size()) == std::string::npos;
}

std::optional<int> parse_port(const std::string& text) {
  int port = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), port);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return port;
}

bool constant_time_equals(std::string_view a, std::string_view b) {
  unsigned char difference = a.size() == b.size() ? 0 : 1;
  for (size_t i = 0; i < a.size(); ++i) {
    difference |= static_cast<unsigned char>(a[i] ^ b[i % (b.empty() ? 1 : b.size())]);
  }
  return difference == 0 && !b.empty();
}

// A change that could not be written to --datadir: not acknowledged, so the client must not
// count on it surviving a restart.
MbError datadir_error(const std::string& failure) {
  return MbError{"datadir error", "the change could not be saved to --datadir: " + failure,
                 std::nullopt};
}

ir::Json errors_body(const MbErrors& errors) {
  ir::Json list = ir::Json::array();
  for (const auto& error : errors) list.push_back(error.to_json());
  return ir::Json{{"errors", list}};
}

}  // namespace

struct AdminApi::Call {
  http::Message message;
  http::Respond respond;
  std::string path;
  std::map<std::string, std::string> query;
  ir::Json body = ir::Json::object();
  std::string base_url;
  KeyValues cors;  // --origin: added to every answer

  bool flag(const char* name) const {
    auto it = query.find(name);
    return it != query.end() && lower(it->second) == "true";
  }
  bool flag_not_false(const char* name) const {
    auto it = query.find(name);
    return it == query.end() || lower(it->second) != "false";
  }

  void send_raw(int status, std::string_view content_type, const std::string& payload,
                KeyValues extra = {}) {
    const bool close = lower(header(message, "connection").value_or("")) == "close" ||
                       (message.version_major == 1 && message.version_minor == 0);
    std::string out =
        "HTTP/1.1 " + std::to_string(status) + " " + std::string(status_text(status)) + "\r\n";
    for (const auto& [name, value] : cors) out += name + ": " + value + "\r\n";
    for (const auto& [name, value] : extra) out += name + ": " + value + "\r\n";
    if (!content_type.empty()) out.append("Content-Type: ").append(content_type).append("\r\n");
    out += "Content-Length: " + std::to_string(payload.size()) + "\r\n";
    out.append(http_date_line_now());
    out += close ? "Connection: close\r\n\r\n" : "Connection: keep-alive\r\n\r\n";
    if (message.method != "HEAD") out += payload;
    http::Reply reply;
    reply.bytes = std::move(out);
    reply.close = close;
    respond(std::move(reply));
  }
  void send(int status, const ir::Json& json, KeyValues extra = {}) {
    send_json_text(status, json.dump(2), std::move(extra));
  }
  void send_json_text(int status, const std::string& text, KeyValues extra = {}) {
    send_raw(status, "application/json; charset=utf-8", text, std::move(extra));
  }
  void fail(int status, const MbErrors& errors) { send(status, errors_body(errors)); }

  // Express's response.format(): JSON for no Accept, */* or JSON; HTML clients get JSON too
  // (Rift has no web UI); anything else is 406.
  bool negotiate() {
    const auto accept = header(message, "accept");
    if (!accept || accept->empty()) return true;
    const std::string value = lower(*accept);
    for (const char* acceptable :
         {"*/*", "application/json", "application/*", "text/html", "text/*"}) {
      if (value.find(acceptable) != std::string::npos) return true;
    }
    send_raw(406, "text/plain; charset=utf-8", "Not Acceptable");
    return false;
  }
};

AdminApi::AdminApi(Registry& registry, const Options& options, Logger& logger,
                   const Tiering* tiering)
    : registry_(registry), options_(options), logger_(logger), tiering_(tiering) {}

void AdminApi::handle(http::Message&& message, http::Respond respond) {
  Call call{std::move(message), std::move(respond)};
  const std::string& target = call.message.target;
  const size_t question = target.find('?');
  call.path = target.substr(0, question);
  if (question != std::string::npos) {
    std::string_view query(target);
    query.remove_prefix(question + 1);
    while (!query.empty()) {
      const size_t amp = query.find('&');
      std::string_view pair = query.substr(0, amp);
      const size_t equals = pair.find('=');
      call.query.emplace(
          percent_decode(pair.substr(0, equals)),
          equals == std::string_view::npos ? "" : percent_decode(pair.substr(equals + 1)));
      if (amp == std::string_view::npos) break;
      query.remove_prefix(amp + 1);
    }
  }
  call.base_url =
      "http://" +
      header(call.message, "host").value_or("localhost:" + std::to_string(options_.port));

  if (options_.apikey) {
    const auto key = header(call.message, "x-api-key");
    if (!key || !constant_time_equals(*key, *options_.apikey)) {
      call.fail(401, {MbError{"unauthorized",
                              "If you set the apiKey option, make sure you are sending the correct "
                              "apiKey in the x-api-key header.",
                              std::nullopt}});
      return;
    }
  }

  // Any non-empty body is JSON whatever its Content-Type; an empty one counts as {}.
  if (!call.message.body.empty()) {
    auto parsed = frontends::parse_json_text(call.message.body);
    if (parsed.is_discarded()) {
      MbError error{"invalid JSON", "Unable to parse body as JSON", ir::Json(call.message.body)};
      call.fail(400, {error});
      return;
    }
    call.body = std::move(parsed);
  }
  logger_.debug(call.message.method + " " + call.message.target);
  if (!options_.origins.empty() && apply_cors(call)) return;
  route(call);
  if (drops_imposters(call.message.method, call.path)) {
    // A deleted or replaced imposter frees its parsed stubs at once (a 10,000-stub imposter is
    // ~35 MiB); glibc keeps freed memory in the thread's arena, so without this RSS stays at its
    // high-water mark for the life of the process (docs/performance.md).
    malloc_trim(0);
  }
}

// --origin, as Express's cors middleware in front of Mountebank's routes: one origin is always
// named; several are echoed when the request's Origin is one of them; a preflight is answered
// here with 204.
bool AdminApi::apply_cors(Call& call) {
  const auto origin = header(call.message, "origin");
  std::optional<std::string> allowed;
  if (options_.origins.size() == 1) {
    allowed = options_.origins.front();
  } else if (origin && std::find(options_.origins.begin(), options_.origins.end(), *origin) !=
                           options_.origins.end()) {
    allowed = *origin;
  }
  if (allowed) call.cors.emplace_back("Access-Control-Allow-Origin", *allowed);
  call.cors.emplace_back("Vary", "Origin");
  if (call.message.method != "OPTIONS") return false;
  KeyValues preflight = {{"Access-Control-Allow-Methods", "GET,HEAD,PUT,PATCH,POST,DELETE"}};
  if (auto requested = header(call.message, "access-control-request-headers")) {
    preflight.emplace_back("Access-Control-Allow-Headers", *requested);
    call.cors.back().second = "Origin, Access-Control-Request-Headers";
  }
  call.send_raw(204, "", "", std::move(preflight));
  return true;
}

void AdminApi::route(Call& call) {
  const std::vector<std::string> parts = split_path(call.path);
  const std::string& method = call.message.method;
  const size_t n = parts.size();
  auto is = [&](size_t i, const char* text) { return i < n && parts[i] == text; };

  // The route table: {method, matched} pairs; OPTIONS on any known path answers 200.
  enum class Route {
    kNone,
    kRoot,
    kImposters,
    kImposter,
    kStubs,
    kStub,
    kSavedProxies,
    kSavedRequests,
    kPlan,
    kExplain,
    kConfig,
    kLogs,
    kMetrics
  };
  Route found = Route::kNone;
  if (n == 0)
    found = Route::kRoot;
  else if (n == 1 && is(0, "imposters"))
    found = Route::kImposters;
  else if (n == 1 && is(0, "config"))
    found = Route::kConfig;
  else if (n == 1 && is(0, "logs"))
    found = Route::kLogs;
  else if (n == 1 && is(0, "metrics"))
    found = Route::kMetrics;
  else if (n == 2 && is(0, "imposters"))
    found = Route::kImposter;
  else if (n == 3 && is(0, "imposters") && is(2, "stubs"))
    found = Route::kStubs;
  else if (n == 4 && is(0, "imposters") && is(2, "stubs"))
    found = Route::kStub;
  else if (n == 3 && is(0, "imposters") && (is(2, "savedProxyResponses") || is(2, "requests")))
    found = Route::kSavedProxies;
  else if (n == 3 && is(0, "imposters") && is(2, "savedRequests"))
    found = Route::kSavedRequests;
  else if (n == 3 && is(0, "imposters") && is(2, "plan"))
    found = Route::kPlan;
  else if (n == 3 && is(0, "imposters") && is(2, "explain"))
    found = Route::kExplain;

  if (found == Route::kNone) {
    call.send_raw(404, "text/html; charset=utf-8", "Cannot " + method + " " + call.path + "\n");
    return;
  }
  if (method == "OPTIONS") {
    call.send_raw(200, "text/html; charset=utf-8", "GET,HEAD,PUT,POST,DELETE");
    return;
  }

  // A frozen mock's imposters are compiled into it: it answers reads (and explain, which
  // changes nothing) and refuses every edit, so the artifact always serves what was built.
  const bool changes = method != "GET" && method != "HEAD" && found != Route::kExplain;
  if (options_.frozen && changes) {
    call.fail(405, {MbError{"read only",
                            "this is a frozen mock built by riftc compile: its imposters cannot be "
                            "changed at run time (" +
                                method + " " + call.path +
                                "); rebuild it from the changed config instead",
                            std::nullopt}});
    return;
  }

  std::shared_ptr<Imposter> imposter;
  std::optional<int> port;
  if (n >= 2) port = parse_port(parts[1]);
  auto require_imposter = [&]() {
    imposter = port ? registry_.find(*port) : nullptr;
    if (!imposter) call.fail(404, {MbError{"no such resource", kNoSuchResource, std::nullopt}});
    return imposter != nullptr;
  };
  auto is_get = method == "GET" || method == "HEAD";

  switch (found) {
    case Route::kRoot:
      if (!is_get) break;
      if (!call.negotiate()) return;
      call.send(200, ir::Json{{"_links",
                               {{"imposters", {{"href", call.base_url + "/imposters"}}},
                                {"config", {{"href", call.base_url + "/config"}}},
                                {"logs", {{"href", call.base_url + "/logs"}}}}}});
      return;
    case Route::kImposters:
      if (is_get) return get_imposters(call);
      if (method == "POST") return post_imposter(call);
      if (method == "PUT") return put_imposters(call);
      if (method == "DELETE") return delete_imposters(call);
      break;
    case Route::kImposter:
      if (method == "DELETE") return delete_imposter(call, port.value_or(-1));
      if (is_get) {
        if (!require_imposter()) return;
        return get_imposter(call, *port);
      }
      break;
    case Route::kStubs:
      if (method != "PUT" && method != "POST") break;
      if (!require_imposter()) return;
      return method == "PUT" ? put_stubs(call, *imposter) : post_stub(call, *imposter);
    case Route::kStub:
      if (method != "PUT" && method != "DELETE") break;
      if (!require_imposter()) return;
      return method == "PUT" ? put_stub(call, *imposter, parts[3])
                             : delete_stub(call, *imposter, parts[3]);
    case Route::kSavedProxies:
    case Route::kSavedRequests: {
      if (method != "DELETE") break;
      if (!require_imposter()) return;
      if (!call.negotiate()) return;
      if (found == Route::kSavedRequests) {
        imposter->clear_recorded_requests();  // the journal is not saved (docs/datadir.md)
      } else {
        // Removing recordings always removes responses: a count tells whether to save.
        auto responses = [&imposter] {
          size_t count = 0;
          for (const auto& stub : imposter->config().stubs) count += stub.responses.size();
          return count;
        };
        const size_t before = responses();
        if (auto error = remove_proxy_recordings(*imposter)) return call.fail(400, {*error});
        const bool changed = responses() != before;
        if (datadir_ && changed && !saved(call, datadir_->changed(*imposter))) return;
      }
      RenderOptions render{ImposterForm::kFull, false, options_.debug, call.base_url};
      call.send_json_text(200, render_imposter_text(*imposter, render));
      return;
    }
    case Route::kPlan:
      if (!is_get) break;
      if (!require_imposter()) return;
      call.send(200, plan_view(*imposter));
      return;
    case Route::kExplain: {
      if (method != "POST") break;
      if (!require_imposter()) return;
      auto report = explain_view(*imposter, call.body);
      if (auto* error = std::get_if<MbError>(&report)) return call.fail(400, {*error});
      call.send(200, std::get<ir::Json>(report));
      return;
    }
    case Route::kConfig:
      if (is_get) return get_config(call);
      break;
    case Route::kLogs:
      if (is_get) return get_logs(call);
      break;
    case Route::kMetrics:
      if (is_get) return get_metrics(call);
      break;
    case Route::kNone:
      break;
  }
  call.send_raw(404, "text/html; charset=utf-8", "Cannot " + method + " " + call.path + "\n");
}

void AdminApi::get_imposters(Call& call) {
  if (!call.negotiate()) return;
  RenderOptions render;
  const bool replayable = call.flag("replayable");
  render.remove_proxies = call.flag("removeProxies");
  render.form = replayable ? ImposterForm::kReplayable
                           : (render.remove_proxies ? ImposterForm::kFull : ImposterForm::kList);
  render.debug = options_.debug;
  render.base_url = call.base_url;
  ir::Json list = ir::Json::array();
  for (const auto& imposter : registry_.list()) list.push_back(render_imposter(*imposter, render));
  call.send(200, ir::Json{{"imposters", list}});
}

void AdminApi::post_imposter(Call& call) {
  // The stubs are moved out of the body, not copied: a 10,000-stub body is megabytes of JSON
  // tree. What stays (the imposter's settings) is all --datadir keeps of it.
  if (!call.body.is_object()) call.body = ir::Json::object();
  auto parsed = frontends::parse_imposter_moving_stubs(call.body, {options_.allow_injection});
  const ir::Json& body = call.body;
  if (auto* errors = std::get_if<MbErrors>(&parsed)) {
    logger_.error("error creating imposter: " + errors_body(*errors).dump());
    return call.fail(400, *errors);
  }
  ir::Imposter config = std::get<ir::Imposter>(std::move(parsed));

  auto added = registry_.add(std::move(config));
  if (auto* error = std::get_if<MbError>(&added)) {
    logger_.error("error creating imposter: " + error->to_json().dump());
    return call.fail(error->code == "insufficient access" ? 403 : 400, {*error});
  }
  const auto& imposter = std::get<std::shared_ptr<Imposter>>(added);
  if (datadir_) {
    if (auto failed = datadir_->created(*imposter, body)) {
      // Not acknowledged, so not kept: a retry must find the port free.
      registry_.remove(imposter->port());
      datadir_->removed(imposter->port());
      saved(call, failed);
      return;
    }
  }
  logger_.info("[" + imposter->config().protocol + ":" + std::to_string(imposter->port()) +
               "] Open for business...");
  RenderOptions render{ImposterForm::kFull, false, options_.debug, call.base_url};
  call.send_json_text(
      201, render_imposter_text(*imposter, render),
      {{"Location", call.base_url + "/imposters/" + std::to_string(imposter->port())}});
}

std::optional<ir::Json> AdminApi::replace_all(const ir::Json& imposters) {
  std::vector<ir::Imposter> configs;
  MbErrors errors;
  if (imposters.is_array()) {
    for (const auto& document : imposters) {
      auto parsed = frontends::parse_imposter(document.is_object() ? document : ir::Json::object(),
                                              {options_.allow_injection});
      if (auto* found = std::get_if<MbErrors>(&parsed)) {
        errors.insert(errors.end(), found->begin(), found->end());
        continue;
      }
      // Checked before anything is deleted: a key OpenSSL refuses must not empty the server.
      auto tls = tls_creation_errors(std::get<ir::Imposter>(parsed));
      errors.insert(errors.end(), tls.begin(), tls.end());
      configs.push_back(std::get<ir::Imposter>(std::move(parsed)));
    }
  }
  if (!errors.empty()) return errors_body(errors);

  // As Mountebank: everything is validated first, then every imposter is replaced. A bind
  // failure after the delete is reported, not rolled back.
  std::vector<int> old_ports;
  for (const auto& imposter : registry_.list()) old_ports.push_back(imposter->port());
  registry_.remove_all();
  std::optional<ir::Json> failure;
  for (size_t i = 0; i < configs.size() && !failure; ++i) {
    auto added = registry_.add(std::move(configs[i]));
    if (auto* error = std::get_if<MbError>(&added)) {
      failure = errors_body({*error});
    } else if (datadir_) {
      // configs[i] was parsed from imposters[i]: any error above would have returned.
      const auto& imposter = std::get<std::shared_ptr<Imposter>>(added);
      if (auto failed = datadir_->created(*imposter, imposters[i])) {
        failure = errors_body({datadir_error(*failed)});
      }
    }
  }
  // New files first, old ones after: a crash in between leaves extra imposters, never fewer.
  if (datadir_) {
    for (int port : old_ports) {
      if (registry_.port_taken(port)) continue;
      if (auto failed = datadir_->removed(port); failed && !failure) {
        failure = errors_body({datadir_error(*failed)});
      }
    }
  }
  if (failure) logger_.error("error replacing imposters: " + failure->dump());
  return failure;
}

std::optional<ir::Json> AdminApi::restore(const ir::Json& document) {
  auto parsed = frontends::parse_imposter(document, {options_.allow_injection});
  if (auto* errors = std::get_if<MbErrors>(&parsed)) return errors_body(*errors);
  ir::Imposter config = std::get<ir::Imposter>(std::move(parsed));
  auto added = registry_.add(std::move(config));
  if (auto* error = std::get_if<MbError>(&added)) return errors_body({*error});
  const auto& imposter = std::get<std::shared_ptr<Imposter>>(added);
  if (datadir_) datadir_->loaded(*imposter, document);
  logger_.info("[" + imposter->config().protocol + ":" + std::to_string(imposter->port()) +
               "] Open for business...");
  return std::nullopt;
}

void AdminApi::put_imposters(Call& call) {
  if (!call.body.is_object() || !call.body.contains("imposters")) {
    return call.fail(400, {bad_data("'imposters' is a required field")});
  }
  if (auto error = replace_all(call.body["imposters"])) {
    const bool not_saved = (*error)["errors"][0]["code"] == "datadir error";
    return call.send(not_saved ? 500 : 400, *error);
  }
  RenderOptions render{ImposterForm::kList, false, options_.debug, call.base_url};
  ir::Json list = ir::Json::array();
  for (const auto& imposter : registry_.list()) list.push_back(render_imposter(*imposter, render));
  call.send(200, ir::Json{{"imposters", list}});
}

void AdminApi::delete_imposters(Call& call) {
  RenderOptions render;
  render.form = call.flag_not_false("replayable") ? ImposterForm::kReplayable : ImposterForm::kFull;
  render.remove_proxies = call.flag("removeProxies");
  render.debug = options_.debug;
  render.base_url = call.base_url;
  ir::Json list = ir::Json::array();
  std::optional<std::string> failure;
  for (const auto& imposter : registry_.list()) {
    list.push_back(render_imposter(*imposter, render));
    const int port = imposter->port();
    registry_.remove(port);
    if (!datadir_) continue;
    if (auto failed = datadir_->removed(port); failed && !failure) failure = failed;
  }
  if (!saved(call, failure)) return;
  call.send(200, ir::Json{{"imposters", list}});
}

void AdminApi::get_imposter(Call& call, int port) {
  if (!call.negotiate()) return;
  auto imposter = registry_.find(port);
  RenderOptions render;
  render.form = call.flag("replayable") ? ImposterForm::kReplayable : ImposterForm::kFull;
  render.remove_proxies = call.flag("removeProxies");
  render.debug = options_.debug;
  render.base_url = call.base_url;
  call.send_json_text(200, render_imposter_text(*imposter, render));
}

void AdminApi::delete_imposter(Call& call, int port) {
  auto imposter = registry_.find(port);
  if (!imposter) return call.send(200, ir::Json::object());
  RenderOptions render;
  render.form = call.flag("replayable") ? ImposterForm::kReplayable : ImposterForm::kFull;
  render.remove_proxies = call.flag("removeProxies");
  render.debug = options_.debug;
  render.base_url = call.base_url;
  const std::string text = render_imposter_text(*imposter, render);
  registry_.remove(port);
  if (datadir_ && !saved(call, datadir_->removed(port))) return;
  call.send_json_text(200, text);
}

namespace {

// Parses new stubs for an existing imposter, collecting every error.
std::variant<std::vector<ir::Stub>, MbErrors> parse_stubs(const ir::Json& stubs,
                                                          bool allow_injection) {
  std::vector<ir::Stub> parsed;
  MbErrors errors;
  for (const auto& stub : stubs) {
    auto result = frontends::parse_stub(stub, {allow_injection});
    if (auto* found = std::get_if<MbErrors>(&result)) {
      errors.insert(errors.end(), found->begin(), found->end());
      continue;
    }
    parsed.push_back(std::get<ir::Stub>(std::move(result)));
  }
  if (!errors.empty()) return errors;
  return parsed;
}

// A stub index in a URL: Mountebank looks it up as an array key, so only canonical integers hit.
std::optional<size_t> stub_index(const std::string& text, size_t count) {
  if (text.empty() || (text.size() > 1 && text[0] == '0')) return std::nullopt;
  size_t index = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), index);
  if (error != std::errc() || end != text.data() + text.size() || index >= count)
    return std::nullopt;
  return index;
}

// A proxy recording is a response whose `is._proxyResponseTime` is a number; removing them
// leaves stubs that may be empty, and those go too (DELETE .../savedProxyResponses).
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

const MbError kBadStubIndex = bad_data(
    "'stubIndex' must be a valid integer, representing the array index position of the stub to "
    "replace");

std::vector<int> identity(size_t count) {
  std::vector<int> keep(count);
  for (size_t i = 0; i < count; ++i) keep[i] = static_cast<int>(i);
  return keep;
}

}  // namespace

std::optional<std::pair<int, MbError>> AdminApi::publish_stubs(Imposter& imposter,
                                                               std::vector<ir::Stub> stubs,
                                                               const std::vector<int>& keep) {
  std::vector<ir::Stub> previous;
  if (datadir_) previous = imposter.config().stubs;
  if (auto error = imposter.set_stubs(std::move(stubs), keep)) return {{400, *error}};
  if (!datadir_) return std::nullopt;
  auto failed = datadir_->changed(imposter);
  if (!failed) return std::nullopt;
  logger_.error("--datadir: " + *failed);
  // Back to the previous stubs, each with its cycle position if the edit had kept it.
  std::vector<int> back(previous.size(), -1);
  for (size_t i = 0; i < keep.size(); ++i) {
    if (keep[i] >= 0) back[static_cast<size_t>(keep[i])] = static_cast<int>(i);
  }
  imposter.set_stubs(std::move(previous), back);
  return {{500, datadir_error(*failed)}};
}

bool AdminApi::saved(Call& call, const std::optional<std::string>& failure) {
  if (!failure) return true;
  logger_.error("--datadir: " + *failure);
  call.fail(500, {datadir_error(*failure)});
  return false;
}

void AdminApi::put_stubs(Call& call, Imposter& imposter) {
  const ir::Json* stubs =
      call.body.is_object() && call.body.contains("stubs") ? &call.body["stubs"] : nullptr;
  if (stubs == nullptr || stubs->is_null())
    return call.fail(400, {bad_data("'stubs' is a required field")});
  if (!stubs->is_array()) return call.fail(400, {bad_data("'stubs' must be an array")});
  auto parsed = parse_stubs(*stubs, options_.allow_injection);
  if (auto* errors = std::get_if<MbErrors>(&parsed)) return call.fail(400, *errors);
  auto list = std::get<std::vector<ir::Stub>>(std::move(parsed));
  const std::vector<int> fresh(list.size(), -1);
  if (auto error = publish_stubs(imposter, std::move(list), fresh)) {
    return call.fail(error->first, {error->second});
  }
  RenderOptions render{ImposterForm::kFull, false, options_.debug, call.base_url};
  call.send_json_text(200, render_imposter_text(imposter, render));
}

void AdminApi::post_stub(Call& call, Imposter& imposter) {
  const ir::Json body = call.body.is_object() ? call.body : ir::Json::object();
  const size_t count = imposter.config().stubs.size();
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

  auto parsed = parse_stubs(ir::Json::array({body["stub"]}), options_.allow_injection);
  if (auto* found = std::get_if<MbErrors>(&parsed)) return call.fail(400, *found);
  std::vector<ir::Stub> stubs = imposter.config().stubs;
  std::vector<int> keep = identity(count);
  stubs.insert(stubs.begin() + static_cast<long>(index),
               std::get<std::vector<ir::Stub>>(parsed)[0]);
  keep.insert(keep.begin() + static_cast<long>(index), -1);
  if (auto error = publish_stubs(imposter, std::move(stubs), keep)) {
    return call.fail(error->first, {error->second});
  }
  RenderOptions render{ImposterForm::kFull, false, options_.debug, call.base_url};
  call.send_json_text(200, render_imposter_text(imposter, render));
}

void AdminApi::put_stub(Call& call, Imposter& imposter, const std::string& text) {
  const size_t count = imposter.config().stubs.size();
  const auto index = stub_index(text, count);
  if (!index) return call.fail(404, {kBadStubIndex});
  auto parsed = parse_stubs(ir::Json::array({call.body}), options_.allow_injection);
  if (auto* found = std::get_if<MbErrors>(&parsed)) return call.fail(400, *found);
  std::vector<ir::Stub> stubs = imposter.config().stubs;
  std::vector<int> keep = identity(count);
  stubs[*index] = std::get<std::vector<ir::Stub>>(parsed)[0];
  keep[*index] = -1;  // a replaced stub restarts its response cycle
  if (auto error = publish_stubs(imposter, std::move(stubs), keep)) {
    return call.fail(error->first, {error->second});
  }
  RenderOptions render{ImposterForm::kFull, false, options_.debug, call.base_url};
  call.send_json_text(200, render_imposter_text(imposter, render));
}

void AdminApi::delete_stub(Call& call, Imposter& imposter, const std::string& text) {
  const size_t count = imposter.config().stubs.size();
  const auto index = stub_index(text, count);
  if (!index) return call.fail(404, {kBadStubIndex});
  std::vector<ir::Stub> stubs = imposter.config().stubs;
  std::vector<int> keep = identity(count);
  stubs.erase(stubs.begin() + static_cast<long>(*index));
  keep.erase(keep.begin() + static_cast<long>(*index));
  if (auto error = publish_stubs(imposter, std::move(stubs), keep)) {
    return call.fail(error->first, {error->second});
  }
  RenderOptions render{ImposterForm::kFull, false, options_.debug, call.base_url};
  call.send_json_text(200, render_imposter_text(imposter, render));
}

void AdminApi::get_config(Call& call) {
  if (!call.negotiate()) return;
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  char cwd[4096] = {};
  if (getcwd(cwd, sizeof(cwd)) == nullptr) cwd[0] = '\0';
  ir::Json process = ir::Json::object();
  process["nodeVersion"] = "n/a (Rift)";
  process["architecture"] = "x64";
  process["platform"] = "linux";
  process["rss"] = static_cast<int64_t>(usage.ru_maxrss) * 1024;
  process["heapTotal"] = 0;
  process["heapUsed"] = 0;
  process["uptime"] = 0;
  process["cwd"] = cwd;
  call.send(
      200,
      ir::Json{{"version", "2.9.1"}, {"options", options_.to_config_json()}, {"process", process}});
}

void AdminApi::get_logs(Call& call) {
  if (!call.negotiate()) return;
  auto number = [&](const char* name) -> std::optional<long> {
    auto it = call.query.find(name);
    if (it == call.query.end()) return std::nullopt;
    long value = 0;
    auto [end, error] =
        std::from_chars(it->second.data(), it->second.data() + it->second.size(), value);
    if (error != std::errc()) return std::nullopt;
    return value;
  };
  call.send(200, logger_.entries(number("startIndex"), number("endIndex")));
}

void AdminApi::get_metrics(Call& call) {
  const auto imposters = registry_.list();  // keeps every imposter alive while rendering
  std::vector<MetricsSource> sources;
  for (const auto& imposter : imposters) {
    const auto& config = imposter->config();
    // Mountebank's log scope, trailing space included.
    std::string label = "[" + config.protocol + ":" + std::to_string(imposter->port());
    if (config.name) label += " " + *config.name;
    label += "] ";
    sources.push_back({std::move(label), &imposter->metrics()});
  }
  std::string text = render_metrics(sources);
  if (tiering_) text += render_tiering_metrics(tiering_->metrics());
  call.send_raw(200, "text/plain; version=0.0.4; charset=utf-8", text);
}

}  // namespace rift
