#include "runtime/app/metrics_port.h"

#include "compiler/ascii.h"
#include "runtime/http/url_path.h"
#include "runtime/imposter/response_renderer.h"

namespace rift {

std::shared_ptr<const http::Handler> metrics_port_handler(std::function<std::string()> exposition) {
  return std::make_shared<const http::Handler>([exposition = std::move(exposition)](
                                                   http::Message&& message, http::Respond respond) {
    const std::string_view target = http::strip_scheme_and_authority(message.target);
    const std::string_view path = target.substr(0, target.find('?'));
    const bool scrape = path == "/metrics" && (message.method == "GET" || message.method == "HEAD");
    const std::string body = scrape ? exposition() : "Not Found";
    const bool close = message.version_major == 1 && message.version_minor == 0;
    http::Reply reply;
    reply.bytes = response_head(
        scrape ? 200 : 404,
        {{"Content-Type", scrape ? "text/plain; version=0.0.4" : "text/plain; charset=utf-8"},
         {"Content-Length", std::to_string(body.size())}},
        close);
    if (message.method != "HEAD") reply.bytes += body;
    reply.close = close;
    respond(std::move(reply));
  });
}

}  // namespace rift
