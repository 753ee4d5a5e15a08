#include "runtime/imposter/views.h"

#include "runtime/imposter/stub_text.h"
#include "runtime/imposter/tls.h"

namespace rift {
namespace {

ir::Json link(const std::string& href) {
  return ir::Json{{"href", href}};
}

bool is_proxy(const ir::Json& response) {
  return response.is_object() && response.contains("proxy");
}

std::string self_href(const Imposter& imposter, const RenderOptions& options) {
  return options.base_url + "/imposters/" + std::to_string(imposter.port());
}

// `_rift` with the password in flowState.redis.url (redis://user:password@host) masked.
ir::Json without_redis_password(ir::Json rift) {
  if (!rift.is_object() || !rift.contains("flowState") || !rift["flowState"].is_object()) {
    return rift;
  }
  ir::Json& redis = rift["flowState"];
  if (!redis.contains("redis") || !redis["redis"].is_object()) return rift;
  auto url = redis["redis"].find("url");
  if (url == redis["redis"].end() || !url->is_string()) return rift;
  std::string text = url->get<std::string>();
  const size_t scheme = text.find("://");
  if (scheme == std::string::npos) return rift;
  const size_t start = scheme + 3;
  const size_t at = text.rfind('@', text.find('/', start));
  if (at == std::string::npos || at < start) return rift;
  const size_t colon = text.find(':', start);
  // A lone userinfo is the password too (docs/flow-state.md).
  const size_t password = colon != std::string::npos && colon < at ? colon + 1 : start;
  text.replace(password, at - password, "****");
  *url = text;
  return rift;
}

// Everything but the stubs, with "stubs" in its place as an empty array.
ir::Json render_head(const Imposter& imposter, const RenderOptions& options) {
  const ir::Imposter& config = imposter.config();
  const std::string self = "/imposters/" + std::to_string(imposter.port());
  const bool replayable = options.form == ImposterForm::kReplayable;

  // Field order follows Mountebank's imposterPrinter: it is what users see first.
  ir::Json out = ir::Json::object();
  out["protocol"] = config.protocol;
  out["port"] = imposter.port();
  if (config.name) out["name"] = *config.name;
  if (config.default_response) out["defaultResponse"] = *config.default_response;
  if (!replayable) out["numberOfRequests"] = imposter.number_of_requests();
  // Only when off: Mountebank has no such field (docs/stub-ids.md#enable-and-disable).
  if (!imposter.enabled()) out["enabled"] = false;

  if (options.form == ImposterForm::kList) {
    if (config.end_of_request_resolver)
      out["endOfRequestResolver"] = *config.end_of_request_resolver;
    out["_links"] = {{"self", link(options.base_url + self)},
                     {"stubs", link(options.base_url + self + "/stubs")}};
    return out;
  }

  out["recordRequests"] = config.record_requests;
  if (config.protocol == "tcp") out["mode"] = config.mode;  // the tcp server's metadata
  if (config.end_of_request_resolver) out["endOfRequestResolver"] = *config.end_of_request_resolver;
  if (config.protocol == "https") {
    const ir::TlsOptions& tls = config.tls;
    // The pair in use, the built-in one when none was given, as Mountebank echoes it.
    out["key"] = tls_key_in_use(tls);
    out["cert"] = tls_cert_in_use(tls);
    out["mutualAuth"] = tls.mutual_auth;
    out["rejectUnauthorized"] = tls.reject_unauthorized_echo;
    out["ca"] = tls.ca_echo;
    if (tls.ciphers) out["ciphers"] = *tls.ciphers;
  }
  // The reference Rift's imposter fields, when given (docs/rift-compatibility.md#imposter-fields).
  if (config.service_name) out["serviceName"] = *config.service_name;
  if (config.service_info) out["serviceInfo"] = *config.service_info;
  if (config.default_forward) out["defaultForward"] = *config.default_forward;
  if (config.strict_behaviors) out["strictBehaviors"] = *config.strict_behaviors;
  // As given, so a replayable export round-trips; other views hide a Redis password.
  if (config.rift) out["_rift"] = replayable ? *config.rift : without_redis_password(*config.rift);
  if (!replayable) out["requests"] = imposter.recorded_requests();
  out["stubs"] = ir::Json::array();
  if (!replayable) {
    out["_links"] = {{"self", link(options.base_url + self)},
                     {"stubs", link(options.base_url + self + "/stubs")}};
  }
  return out;
}

}  // namespace

ir::Json render_imposter(const Imposter& imposter, const RenderOptions& options) {
  ir::Json out = render_head(imposter, options);
  if (options.form == ImposterForm::kList) return out;
  const ir::Imposter& config = imposter.config();
  const std::string self = self_href(imposter, options);
  const bool replayable = options.form == ImposterForm::kReplayable;

  ir::Json stubs = ir::Json::array();
  for (size_t i = 0; i < config.stubs.size(); ++i) {
    ir::Json stub = config.stubs[i].source;
    if (replayable) {
      for (auto& response : stub["responses"]) {
        if (response.is_object() && response.contains("is") && response["is"].is_object()) {
          response["is"].erase("_proxyResponseTime");
        }
      }
    } else {
      if (options.debug) {
        ir::Json matches = imposter.matches(i);
        if (!matches.empty()) stub["matches"] = std::move(matches);
      }
      // Numbered before proxies are removed, as Mountebank does (indexes may skip).
      stub["_links"] = {{"self", link(self + "/stubs/" + std::to_string(i))}};
    }
    stubs.push_back(std::move(stub));
  }
  if (options.remove_proxies) {
    ir::Json kept = ir::Json::array();
    for (auto& stub : stubs) {
      ir::Json responses = ir::Json::array();
      for (auto& response : stub["responses"]) {
        if (!is_proxy(response)) responses.push_back(response);
      }
      if (responses.empty()) continue;
      stub["responses"] = std::move(responses);
      kept.push_back(std::move(stub));
    }
    stubs = std::move(kept);
  }
  out["stubs"] = std::move(stubs);
  return out;
}

std::string render_imposter_text(const Imposter& imposter, const RenderOptions& options) {
  const size_t count = imposter.config().stubs.size();
  bool cached = options.form == ImposterForm::kFull && !options.debug && !options.remove_proxies;
  for (size_t i = 0; cached && i < count; ++i) cached = imposter.cached_stub_text(i) != nullptr;
  if (!cached || count == 0) return render_imposter(imposter, options).dump(2);

  const std::string head = render_head(imposter, options).dump(2);
  // The document's own "stubs" key: deeper keys are indented further, and no string holds a
  // raw newline, so this is found exactly once.
  constexpr std::string_view kEmptyStubs = "\n  \"stubs\": []";
  const size_t at = head.find(kEmptyStubs);
  if (at == std::string::npos) return render_imposter(imposter, options).dump(2);

  const std::string stubs_href = self_href(imposter, options) + "/stubs/";
  std::string out;
  size_t size = head.size();
  for (size_t i = 0; i < count; ++i) size += imposter.cached_stub_text(i)->size() + 128;
  out.reserve(size + count * stubs_href.size());
  out.append(head, 0, at + kEmptyStubs.size() - 1);  // up to and including the '['
  for (size_t i = 0; i < count; ++i) {
    out += i == 0 ? "\n    " : ",\n    ";
    append_stub(out, *imposter.cached_stub_text(i), stubs_href + std::to_string(i));
  }
  out += "\n  ]";
  out.append(head, at + kEmptyStubs.size());
  return out;
}

}  // namespace rift
