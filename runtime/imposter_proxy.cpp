// The `proxy` response (spec 5.6): forward on the worker's loop, record on the control thread,
// then answer. The recording is filed before the answer is sent, so a client's next request
// already sees it, as with Mountebank.
#include <chrono>

#include "compiler/request.h"
#include "runtime/imposter.h"
#include "runtime/proxy/capture.h"
#include "runtime/proxy/origin_client.h"
#include "runtime/proxy/outbound_request.h"
#include "runtime/proxy/predicate_generators.h"
#include "runtime/proxy/recorder.h"

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
  if (it == object.end()) return false;
  const ir::Json& value = *it;
  return !(value.is_null() || value == false || value == 0 || value == "");
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
  const ir::Json& elapsed = capture["_proxyResponseTime"];
  if (truthy_member(config, "addWaitBehavior") && elapsed.is_number() && elapsed != 0) {
    behaviors.push_back(ir::Json{{"wait", elapsed}});
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

}  // namespace

void Imposter::proxy(const http::Message& message, const Request& request,
                     const ir::Response& response, std::shared_ptr<StubState> stub,
                     std::chrono::milliseconds wait,
                     std::shared_ptr<const behaviors::Pipeline> behaviors,
                     const std::shared_ptr<const PlanSnapshot>& snapshot,
                     const WireContext& context, http::Respond respond) {
  const ir::Json& config = response.value;
  const auto origin = proxy::parse_origin(string_member(config, "to").value_or(""));
  if (!origin || message.loop == nullptr) {
    const std::string to = string_member(config, "to").value_or("");
    respond(reply_of(
        MbError{"invalid proxy", "Unable to connect to " + ir::Json(to).dump(), std::nullopt},
        context));
    return;
  }
  ir::Json request_json = to_json(request);
  proxy::inject_headers(request_json, config);
  auto outbound = proxy::outbound_request(message, config, *origin);
  const auto started = std::chrono::steady_clock::now();

  // What follows the behaviors (spec 5.6): answer with `response` (defaults merged), and record
  // it unless the proxy is transparent. May run on a ShellRunner thread.
  auto finish = [config, request_json = std::move(request_json), stub = std::move(stub),
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
    auto predicates = proxy::generate_predicates(
        request_json, config.value("predicateGenerators", ir::Json::array()));
    if (auto* error = std::get_if<MbError>(&predicates)) {
      respond(reply_of(*error, context));
      return;
    }
    self->options_.post_to_control([self, stub, mode, predicates = std::get<ir::Json>(predicates),
                                    recorded = recorded_response(config, response),
                                    reply = std::move(reply),
                                    respond = std::move(respond)]() mutable {
      self->record_proxy_response(stub, mode, predicates, recorded);
      respond(std::move(reply));
    });
  };

  std::shared_ptr<const ir::Json> behavior_request;
  if (behaviors) behavior_request = std::make_shared<const ir::Json>(to_json(request));
  proxy::fetch(
      *message.loop, *origin, std::move(outbound), client_tls(config),
      [self = shared_from_this(), behaviors = std::move(behaviors),
       behavior_request = std::move(behavior_request), finish = std::move(finish), wait, context,
       started, respond = std::move(respond)](proxy::OriginResult result) mutable {
        if (auto* error = std::get_if<MbError>(&result)) {
          respond(reply_of(*error, context));
          return;
        }
        const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::steady_clock::now() - started);
        ir::Json capture = proxy::capture(std::get<proxy::OriginResponse>(result),
                                          static_cast<long>(elapsed.count()));
        if (!behaviors) {
          finish(self, capture, wait, std::move(respond));
          return;
        }
        // Mountebank runs the proxy's own behaviors on the capture, then records their output.
        behaviors->run(behaviors::StepContext{behavior_request, self->options_.behaviors},
                       std::move(capture),
                       [self, finish = std::move(finish), context,
                        respond = std::move(respond)](behaviors::Outcome outcome) mutable {
                         if (auto* error = std::get_if<MbError>(&outcome)) {
                           respond(reply_of(*error, context));
                           return;
                         }
                         const auto& flow = std::get<behaviors::Flow>(outcome);
                         finish(self, flow.response, flow.delay, std::move(respond));
                       });
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
