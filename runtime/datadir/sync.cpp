#include "runtime/datadir/sync.h"

namespace rift {

void DatadirSync::remember(const Imposter& imposter, const ir::Json& request) {
  ir::Json header = request.is_object() ? request : ir::Json::object();
  // Output-only fields of a GET pasted back into a POST: state, not configuration.
  for (const char* key : {"stubs", "requests", "numberOfRequests", "_links"}) header.erase(key);
  header["port"] = imposter.port();  // the bound one, when the OS chose it
  headers_[imposter.port()] = std::move(header);
}

void DatadirSync::loaded(const Imposter& imposter, const ir::Json& document) {
  remember(imposter, document);
}

std::optional<std::string> DatadirSync::created(const Imposter& imposter, const ir::Json& request) {
  remember(imposter, request);
  return changed(imposter);
}

std::optional<std::string> DatadirSync::changed(const Imposter& imposter) {
  auto header = headers_.find(imposter.port());
  ir::Json document = header != headers_.end() ? header->second
                                               : ir::Json{{"protocol", imposter.config().protocol},
                                                          {"port", imposter.port()}};
  // The running imposter's own switch (POST .../disable), not the one it was created with.
  if (imposter.enabled()) {
    document.erase("enabled");
  } else {
    document["enabled"] = false;
  }
  ir::Json stubs = ir::Json::array();
  for (const auto& stub : imposter.config().stubs) stubs.push_back(stub.source);
  document["stubs"] = std::move(stubs);
  return store_.save(imposter.port(), document);
}

std::optional<std::string> DatadirSync::removed(int port) {
  headers_.erase(port);
  return store_.remove(port);
}

}  // namespace rift
