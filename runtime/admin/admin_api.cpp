#include "runtime/admin/admin_api.h"

#include <malloc.h>

#include <algorithm>

#include "compiler/ascii.h"
#include "compiler/json_stream.h"
#include "compiler/nesting.h"
#include "compiler/text_encoding.h"
#include "runtime/admin/events.h"
#include "runtime/admin/imposters.h"
#include "runtime/admin/routes.h"
#include "runtime/front_door/gateway.h"
#include "runtime/imposter/response_renderer.h"

namespace rift {
namespace {

// DELETE /imposters, DELETE /imposters/:port and PUT /imposters: the calls that free whole
// imposters. Stub edits are left out: they free little and come often (bench/jit.py edits).
bool drops_imposters(const std::string& method, const std::string& path) {
  if (path == "/imposters") return method == "DELETE" || method == "PUT";
  constexpr std::string_view kOne = "/imposters/";
  return method == "DELETE" && path.starts_with(kOne) &&
         path.find('/', kOne.size()) == std::string::npos;
}

bool constant_time_equals(std::string_view a, std::string_view b) {
  unsigned char difference = a.size() == b.size() ? 0 : 1;
  for (size_t i = 0; i < a.size(); ++i) {
    difference |= static_cast<unsigned char>(a[i] ^ b[i % (b.empty() ? 1 : b.size())]);
  }
  return difference == 0 && !b.empty();
}

}  // namespace

AdminApi::AdminApi(Registry& registry, const Options& options, Logger& logger,
                   const Tiering* tiering, std::shared_ptr<events::EventBus> events)
    : state_{registry, options, logger, tiering, nullptr, std::move(events)} {}

std::optional<AdminReply> AdminApi::refuse_without_key(Call& call) const {
  const Options& options = state_.options;
  if (!options.apikey) return std::nullopt;
  const auto key = call.header("x-api-key");
  if (key && constant_time_equals(*key, *options.apikey)) return std::nullopt;
  call.fail(401, {MbError{"unauthorized",
                          "If you set the apiKey option, make sure you are sending the correct "
                          "apiKey in the x-api-key header.",
                          std::nullopt}});
  return call.take_reply();
}

AdminReply AdminApi::call(const AdminRequest& request) {
  const Options& options = state_.options;
  Call call(request);
  call.base_url =
      "http://" +
      std::string(call.header("host").value_or("localhost:" + std::to_string(options.port)));
  if (auto refused = refuse_without_key(call)) return *std::move(refused);
  // Any non-empty body is JSON whatever its Content-Type; an empty one counts as {}.
  if (!request.body.empty()) {
    // Mountebank decodes the body as UTF-8 before JSON.parse, each invalid sequence becoming
    // U+FFFD; without that, the error's echo of the body could not be written as JSON either.
    const std::string text = to_valid_utf8(request.body);
    auto parsed = json_stream::parse_nlohmann(text);
    if (parsed.is_discarded()) {
      std::string message = "Unable to parse body as JSON";
      if (nesting::json_exceeds(text)) message += ": " + nesting::limit_message();
      call.fail(400, {MbError{"invalid JSON", std::move(message), ir::Json(text)}});
      return call.take_reply();
    }
    call.body = std::move(parsed);
  }
  state_.logger.debug(request.method + " " + request.target);
  if (!options.origins.empty() && apply_cors(call)) return call.take_reply();
  admin::route(state_, call);
  if (!call.answered()) call.fail(500, {MbError{"error", "no answer", std::nullopt}});
  if (drops_imposters(request.method, call.path())) {
    // A deleted or replaced imposter frees its parsed stubs at once (a 10,000-stub imposter is
    // ~35 MiB); glibc keeps freed memory in the thread's arena, so without this RSS stays at its
    // high-water mark for the life of the process (docs/performance.md).
    malloc_trim(0);
  }
  return call.take_reply();
}

void AdminApi::handle(http::Message&& message, http::Respond respond) {
  if (front_door::serve_gateway(state_.registry, message, respond)) return;
  AdminRequest request{std::move(message.method), std::move(message.target),
                       std::move(message.body), std::move(message.headers)};
  const std::string* connection = find_ignoring_case(request.headers, "connection");
  const bool close = (connection != nullptr && ascii::lower(*connection) == "close") ||
                     (message.version_major == 1 && message.version_minor == 0);
  http::Reply wire;
  std::optional<AdminReply> reply;
  {
    Call stream_call(request);
    if (admin::is_event_stream(stream_call.path()) && !refuse_without_key(stream_call)) {
      auto opened = admin::open_event_stream(state_, stream_call);
      if (auto* stream = std::get_if<std::shared_ptr<events::EventStream>>(&opened)) {
        wire.bytes = response_head(200,
                                   {{"Content-Type", "text/event-stream"},
                                    {"Cache-Control", "no-cache"},
                                    {"X-Accel-Buffering", "no"},
                                    {"Transfer-Encoding", "chunked"}},
                                   false);
        wire.stream = std::move(*stream);
        respond(std::move(wire));
        return;
      }
      reply = std::get<AdminReply>(std::move(opened));
    }
  }
  if (!reply) reply = call(request);
  KeyValues headers = reply->headers;
  if (!reply->content_type.empty()) headers.emplace_back("Content-Type", reply->content_type);
  headers.emplace_back("Content-Length", std::to_string(reply->body.size()));
  std::string out = response_head(reply->status, headers, close);
  if (request.method != "HEAD") out += reply->body;
  wire.bytes = std::move(out);
  wire.close = close;
  respond(std::move(wire));
}

// --origin, as Express's cors middleware in front of Mountebank's routes: one origin is always
// named; several are echoed when the request's Origin is one of them; a preflight is answered
// here with 204.
bool AdminApi::apply_cors(Call& call) {
  const auto& origins = state_.options.origins;
  const auto origin = call.header("origin");
  std::optional<std::string> allowed;
  if (origins.size() == 1) {
    allowed = origins.front();
  } else if (origin && std::find(origins.begin(), origins.end(), *origin) != origins.end()) {
    allowed = std::string(*origin);
  }
  if (allowed) call.add_cors_header("Access-Control-Allow-Origin", *allowed);
  const bool preflight = call.method() == "OPTIONS";
  const auto requested = call.header("access-control-request-headers");
  call.add_cors_header(
      "Vary", preflight && requested ? "Origin, Access-Control-Request-Headers" : "Origin");
  if (!preflight) return false;
  KeyValues headers = {{"Access-Control-Allow-Methods", "GET,HEAD,PUT,PATCH,POST,DELETE"}};
  if (requested) headers.emplace_back("Access-Control-Allow-Headers", std::string(*requested));
  call.send_raw(204, "", "", std::move(headers));
  return true;
}

std::optional<ir::Json> AdminApi::replace_all(const ir::Json& imposters) {
  return admin::replace_all(state_, imposters);
}

std::optional<ir::Json> AdminApi::restore(const ir::Json& document) {
  return admin::restore(state_, document);
}

}  // namespace rift
