#include "runtime/front_door/gateway.h"

#include <charconv>
#include <string>
#include <string_view>

#include "runtime/http/url_path.h"
#include "runtime/imposter/response_renderer.h"
#include "runtime/imposter/script_reply.h"

namespace rift::front_door {

namespace {

constexpr std::string_view kPrefix = "/__rift/";

}  // namespace

http::Reply error_reply(int status, const char* type, const std::string& message, bool close,
                        KeyValues marker) {
  const std::string body = error_document(std::to_string(status), type, message).dump(2);
  KeyValues headers = {{"Content-Type", "application/json"}};
  for (auto& header : marker) headers.push_back(std::move(header));
  headers.emplace_back("Content-Length", std::to_string(body.size()));
  http::Reply reply;
  reply.bytes = response_head(status, headers, close) + body;
  reply.close = close;
  return reply;
}

namespace {

// "4545" -> 4545; anything but a port number (empty, a sign, 0, beyond 65535) -> 0.
int port_of(std::string_view text) {
  int port = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), port);
  if (error != std::errc() || end != text.data() + text.size()) return 0;
  return port >= 1 && port <= 65535 ? port : 0;
}

}  // namespace

bool serve_gateway(const Registry& registry, http::Message& message, http::Respond& respond) {
  const std::string_view target = http::strip_scheme_and_authority(message.target);
  if (!target.starts_with(kPrefix)) return false;
  const std::string_view rest = target.substr(kPrefix.size());
  const size_t end = rest.find_first_of("/?");
  const std::string_view port_text = rest.substr(0, end);
  const bool close = message.version_major == 1 && message.version_minor == 0;
  const int port = port_text.empty() ? 0 : port_of(port_text);
  if (port == 0) {
    respond(error_reply(
        400, "bad data",
        "invalid gateway target '" + std::string(port_text) + "' (expected /__rift/<port>/<path>)",
        close));
    return true;
  }
  const std::shared_ptr<Imposter> imposter = registry.find_published(port);
  if (!imposter || !imposter->speaks_http()) {
    respond(error_reply(404, "no such resource",
                        (imposter ? "the imposter on port " + std::to_string(port) +
                                        " does not speak HTTP (tcp and smtp imposters answer "
                                        "only on their own port)"
                                  : "no imposter on port " + std::to_string(port)),
                        close));
    return true;
  }
  // The imposter sees its own path: `/__rift/4545/a?q` is `/a?q`, `/__rift/4545` is `/`.
  std::string path(end == std::string_view::npos ? std::string_view() : rest.substr(end));
  if (path.empty() || path.front() == '?') path.insert(0, "/");
  message.target = std::move(path);
  message.remote_address = "127.0.0.1";
  imposter->handle(std::move(message), std::move(respond));
  return true;
}

}  // namespace rift::front_door
