// The `proxy` response (docs/mountebank-semantics.md §5.6): forward on the worker's loop, record on
// the control thread, then answer. The recording is filed before the answer is sent, so a client's
// next request already sees it, as with Mountebank.
#include <algorithm>
#include <chrono>

#include "compiler/base64.h"
#include "compiler/js_value.h"
#include "compiler/request.h"
#include "compiler/text_encoding.h"
#include "runtime/imposter/imposter.h"
#include "runtime/imposter/script_reply.h"
#include "runtime/proxy/capture.h"
#include "runtime/proxy/origin_client.h"
#include "runtime/proxy/outbound_request.h"
#include "runtime/proxy/predicate_generators.h"
#include "runtime/proxy/recorder.h"
#include "runtime/proxy/tcp_origin.h"

namespace rift {
namespace {

std::optional<std::string> string_member(const ir::Json& object, const char* key) {
  if (!object.is_object()) return std::nullopt;
  auto it = object.find(key);
  if (it == object.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

bool truthy_member(const ir::Json& object, const char* key) {
  if (!object.is_object()) return false;
  auto it = object.find(key);
  return it != object.end() && js::truthy(*it);
}

proxy::ClientTls client_tls(const ir::Json& config) {
  proxy::ClientTls tls;
  tls.cert = string_member(config, "cert");
  tls.key = string_member(config, "key");
  tls.passphrase = string_member(config, "passphrase");
  if (auto ciphers = string_member(config, "ciphers"); ciphers && !ciphers->empty()) {
    tls.ciphers = *ciphers;
  }
  return tls;
}

using Generated = std::function<void(script::Result<std::vector<ir::Json>>)>;

// Evaluates the `inject` predicate generators one after another on the script engine, each
// from the previous one's callback, and hands `done` what each returned.
void evaluate_generators(std::shared_ptr<const script::ImposterScripts> scripts,
                         std::shared_ptr<const std::vector<std::string>> sources,
                         std::shared_ptr<const ir::Json> request, std::vector<ir::Json> results,
                         Generated done) {
  if (results.size() == sources->size()) return done(std::move(results));
  const std::string& source = (*sources)[results.size()];
  scripts->generate(source, *request,
                    [scripts, sources, request, results = std::move(results),
                     done = std::move(done)](script::Result<ir::Json> answer) mutable {
                      if (auto* error = std::get_if<MbError>(&answer)) {
                        return done(std::move(*error));
                      }
                      results.push_back(std::get<ir::Json>(std::move(answer)));
                      evaluate_generators(std::move(scripts), std::move(sources),
                                          std::move(request), std::move(results), std::move(done));
                    });
}

// Missing or unknown modes count as proxyOnce.
std::string mode_of(const ir::Json& config) {
  const auto mode = string_member(config, "mode");
  if (mode == "proxyAlways" || mode == "proxyTransparent") return *mode;
  return "proxyOnce";
}

// {"is": capture} plus the wait and decorate behaviors the proxy asks its recordings to carry.
ir::Json recorded_response(const ir::Json& config, const ir::Json& capture) {
  ir::Json out = ir::Json::object();
  out["is"] = capture;
  ir::Json behaviors = ir::Json::array();
  // `proxyConfig.addWaitBehavior && response._proxyResponseTime`
  if (truthy_member(config, "addWaitBehavior") && truthy_member(capture, "_proxyResponseTime")) {
    behaviors.push_back(ir::Json{{"wait", capture["_proxyResponseTime"]}});
  }
  if (truthy_member(config, "addDecorateBehavior")) {
    behaviors.push_back(ir::Json{{"decorate", config["addDecorateBehavior"]}});
  }
  if (!behaviors.empty()) out["behaviors"] = std::move(behaviors);
  return out;
}

http::Reply reply_of(const std::variant<WireResponse, MbError>& wire, const WireContext& context) {
  const WireResponse& sent = std::holds_alternative<WireResponse>(wire)
                                 ? std::get<WireResponse>(wire)
                                 : render_error(std::get<MbError>(wire), context);
  http::Reply reply;
  reply.bytes = sent.serialize(http_date_now());
  reply.close = sent.close;
  return reply;
}

// A proxy that could not reach its origin: Mountebank's answer, marked `x-rift-proxy-error`. A
// defaultForward's (a Rift extension, so the reference's answer) is a 502 in the error envelope
// marked `x-rift-default-forward-error` instead of `x-rift-default-forward`.
http::Reply upstream_failure(const MbError& error, const std::string& url, WireContext context) {
  auto& extra = context.extra_headers;
  const auto forward = std::find_if(extra.begin(), extra.end(), [](const auto& header) {
    return header.first == "x-rift-default-forward";
  });
  if (forward == extra.end()) {
    extra.emplace_back("x-rift-proxy-error", "true");
    return reply_of(error, context);
  }
  extra.erase(forward);
  extra.emplace_back("x-rift-default-forward-error", "true");
  const ir::Json is = {
      {"statusCode", 502},
      {"headers", {{"Content-Type", "application/json"}}},
      {"body",
       error_document("502", "upstream failure",
                      "defaultForward upstream error: Failed to send proxy request to " + url)
           .dump(2)}};
  return reply_of(render_response(is, std::nullopt, context), context);
}

}  // namespace

void Imposter::proxy(const http::Message& message, const Request& request,
                     const ir::Response& response, std::shared_ptr<StubState> stub,
                     std::chrono::milliseconds wait,
                     std::shared_ptr<const behaviors::Pipeline> behaviors,
                     const std::shared_ptr<const PlanSnapshot>& snapshot,
                     const WireContext& context, http::Respond respond) {
  const ir::Json& config = response.value;
  const bool tcp = context.wire != WireContext::Wire::kHttp;
  const std::string to = string_member(config, "to").value_or("");
  const auto origin = tcp ? std::nullopt : proxy::parse_origin(to);
  if ((!tcp && !origin) || message.loop == nullptr) {
    respond(reply_of(
        MbError{"invalid proxy", "Unable to connect to " + ir::Json(to).dump(), std::nullopt},
        context));
    return;
  }
  ir::Json request_json = to_json(request);
  if (!tcp) proxy::inject_headers(request_json, config);
  const auto started = std::chrono::steady_clock::now();

  // What follows the behaviors (docs/mountebank-semantics.md §5.6): answer with `response`
  // (defaults merged), and record it unless the proxy is transparent. May run on a shell runner or
  // the script engine's thread. Mountebank's behaviors and predicate generators both see the
  // request with injectHeaders.
  auto shared_request = std::make_shared<const ir::Json>(std::move(request_json));
  auto finish = [config, shared_request, stub = std::move(stub),
                 defaults = snapshot->config->default_response,
                 context](const std::shared_ptr<Imposter>& self, const ir::Json& response,
                          std::chrono::milliseconds delay, http::Respond respond) {
    http::Reply reply = reply_of(render_response(response, defaults, context), context);
    reply.delay = delay;
    const std::string mode = mode_of(config);
    if (mode == "proxyTransparent" || !self->options_.post_to_control) {
      respond(std::move(reply));
      return;
    }
    const ir::Json generators = config.value("predicateGenerators", ir::Json::array());
    auto record = [self, stub, mode, generators, shared_request, context,
                   recorded = recorded_response(config, response), reply = std::move(reply),
                   respond =
                       std::move(respond)](script::Result<std::vector<ir::Json>> injected) mutable {
      auto predicates = std::holds_alternative<MbError>(injected)
                            ? std::variant<ir::Json, MbError>(std::get<MbError>(injected))
                            : proxy::generate_predicates(*shared_request, generators,
                                                         std::get<std::vector<ir::Json>>(injected));
      if (auto* error = std::get_if<MbError>(&predicates)) {
        respond(reply_of(*error, context));
        return;
      }
      self->options_.post_to_control([self, stub, mode,
                                      predicates = std::get<ir::Json>(std::move(predicates)),
                                      recorded = std::move(recorded), reply = std::move(reply),
                                      respond = std::move(respond)]() mutable {
        self->record_proxy_response(stub, mode, predicates, recorded);
        respond(std::move(reply));
      });
    };
    auto sources = proxy::injected_generators(generators);
    if (sources.empty()) return record(std::vector<ir::Json>{});
    if (!self->scripts_) {
      return record(MbError{"invalid injection",
                            "JavaScript injection is not allowed unless mb is run with the "
                            "--allowInjection flag",
                            std::nullopt});
    }
    // Shares ownership of the imposter, which owns its scripts.
    evaluate_generators(std::shared_ptr<const script::ImposterScripts>(self, self->scripts_.get()),
                        std::make_shared<const std::vector<std::string>>(std::move(sources)),
                        shared_request, {}, std::move(record));
  };

  // Mountebank runs the proxy's own behaviors on the capture, then records their output.
  auto captured = [self = shared_from_this(), behaviors = std::move(behaviors), shared_request,
                   finish = std::move(finish), wait,
                   context](ir::Json capture, http::Respond respond) mutable {
    if (!behaviors) {
      finish(self, capture, wait, std::move(respond));
      return;
    }
    behaviors->run(self->step_context(shared_request), std::move(capture),
                   [self, finish = std::move(finish), context,
                    respond = std::move(respond)](behaviors::Outcome outcome) mutable {
                     if (auto* error = std::get_if<MbError>(&outcome)) {
                       respond(reply_of(*error, context));
                       return;
                     }
                     const auto& flow = std::get<behaviors::Flow>(outcome);
                     finish(self, flow.response, flow.delay, std::move(respond));
                   });
  };
  if (tcp) {
    proxy_tcp_origin(message, to, context, started, std::move(captured), std::move(respond));
    return;
  }
  auto outbound = proxy::outbound_request(message, config, *origin);
  std::string url = origin->to + outbound.target;  // for a defaultForward's error message
  proxy::fetch(*message.loop, *origin, std::move(outbound), client_tls(config),
               [self = shared_from_this(), captured = std::move(captured), context, started,
                method = message.method, url = std::move(url),
                respond = std::move(respond)](proxy::OriginResult result) mutable {
                 if (auto* error = std::get_if<MbError>(&result)) {
                   respond(upstream_failure(*error, url, context));  // a failed one records nothing
                   return;
                 }
                 const auto took = std::chrono::steady_clock::now() - started;
                 if (self->options_.metrics) {
                   self->options_.metrics->upstream(
                       method, std::get<proxy::OriginResponse>(result).status,
                       std::chrono::duration<double, std::milli>(took).count());
                 }
                 const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(took);
                 captured(proxy::capture(std::get<proxy::OriginResponse>(result),
                                         static_cast<long>(elapsed.count())),
                          std::move(respond));
               });
}

template <typename Captured>
void Imposter::proxy_tcp_origin(const http::Message& message, const std::string& to,
                                const WireContext& context,
                                std::chrono::steady_clock::time_point started, Captured captured,
                                http::Respond respond) {
  const bool binary = context.wire == WireContext::Wire::kTcpBinary;
  // The origin's answer is framed as the imposter frames requests (tcpProxy.js).
  std::function<bool(const std::string&)> ends =
      [self = shared_from_this()](const std::string& gathered) {
        return self->ends_request(gathered);
      };
  proxy::fetch_tcp(*message.loop, to, message.body, std::move(ends),
                   [captured = std::move(captured), context, started, binary,
                    respond = std::move(respond)](proxy::TcpOriginResult result) mutable {
                     if (auto* error = std::get_if<MbError>(&result)) {
                       respond(reply_of(*error, context));  // a failed one records nothing
                       return;
                     }
                     const std::string& bytes = std::get<std::string>(result);
                     const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::steady_clock::now() - started);
                     ir::Json capture = ir::Json::object();
                     capture["data"] = binary ? base64_encode(bytes) : to_valid_utf8(bytes);
                     capture["_proxyResponseTime"] = took.count();
                     captured(std::move(capture), std::move(respond));
                   });
}

void Imposter::record_proxy_response(const std::shared_ptr<StubState>& proxy_stub,
                                     const std::string& mode, const ir::Json& predicates,
                                     const ir::Json& response) {
  size_t index = states_.size();
  for (size_t i = 0; i < states_.size(); ++i) {
    if (states_[i] == proxy_stub) index = i;
  }
  if (index == states_.size()) return;  // the proxy stub was replaced or deleted meanwhile
  auto recorded = proxy::record(config_->stubs, index, mode, predicates, response);
  if (auto* done = std::get_if<proxy::Recorded>(&recorded)) {
    if (!set_stubs(std::move(done->stubs), done->keep) && options_.stubs_recorded) {
      options_.stubs_recorded(*this);
    }
  }
}

}  // namespace rift
