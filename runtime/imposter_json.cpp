#include "runtime/imposter_json.h"

#include "runtime/imposter_tls.h"

namespace rift {
namespace {

ir::Json link(const std::string& href) {
  return ir::Json{{"href", href}};
}

bool is_proxy(const ir::Json& response) {
  return response.is_object() && response.contains("proxy");
}

}  // namespace

ir::Json render_imposter(const Imposter& imposter, const RenderOptions& options) {
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

  if (options.form == ImposterForm::kList) {
    out["_links"] = {{"self", link(options.base_url + self)},
                     {"stubs", link(options.base_url + self + "/stubs")}};
    return out;
  }

  out["recordRequests"] = config.record_requests;
  if (config.protocol == "https") {
    const ir::TlsOptions& tls = config.tls;
    // The pair in use, the built-in one when none was given, as Mountebank echoes it.
    out["key"] = tls_key_in_use(tls);
    out["cert"] = tls_cert_in_use(tls);
    out["mutualAuth"] = tls.mutual_auth;
    out["rejectUnauthorized"] = tls.reject_unauthorized;
    out["ca"] = tls.ca ? ir::Json(*tls.ca) : ir::Json(nullptr);
    if (tls.ciphers) out["ciphers"] = *tls.ciphers;
  }
  if (!replayable) out["requests"] = imposter.recorded_requests();

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
      stub["_links"] = {{"self", link(options.base_url + self + "/stubs/" + std::to_string(i))}};
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

  if (!replayable) {
    out["_links"] = {{"self", link(options.base_url + self)},
                     {"stubs", link(options.base_url + self + "/stubs")}};
  }
  return out;
}

}  // namespace rift
