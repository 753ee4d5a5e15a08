#include "runtime/proxy/recorder.h"

#include <nlohmann/json.hpp>

#include "frontends/mountebank_json.h"

namespace rift::proxy {
namespace {

// Mountebank compares with a stable (key-sorted) stringify: nlohmann::json sorts its keys.
nlohmann::json sorted(const ir::Json& value) {
  return nlohmann::json::parse(value.dump());
}

std::variant<ir::Stub, MbError> parse(const ir::Json& source) {
  // The proxy was accepted with its decorator, so its recordings are too.
  auto parsed = frontends::parse_stub(source, {/*allow_injection=*/true});
  if (auto* errors = std::get_if<MbErrors>(&parsed)) {
    if (!errors->empty()) return errors->front();
    return MbError{"invalid proxy", "the recorded stub is invalid", std::nullopt};
  }
  return std::get<ir::Stub>(std::move(parsed));
}

std::vector<int> identity(size_t count) {
  std::vector<int> keep(count);
  for (size_t i = 0; i < count; ++i) keep[i] = static_cast<int>(i);
  return keep;
}

}  // namespace

std::variant<Recorded, MbError> record(const std::vector<ir::Stub>& stubs, size_t proxy_index,
                                       const std::string& mode, const ir::Json& predicates,
                                       const ir::Json& new_response) {
  Recorded out{stubs, identity(stubs.size())};
  if (mode == "proxyAlways") {
    const nlohmann::json wanted = sorted(predicates);
    for (size_t i = proxy_index + 1; i < stubs.size(); ++i) {
      const ir::Json& source = stubs[i].source;
      const ir::Json existing =
          source.contains("predicates") ? source["predicates"] : ir::Json::array();
      if (sorted(existing) != wanted) continue;
      ir::Json grown = source;
      if (!grown["responses"].is_array()) grown["responses"] = ir::Json::array();
      grown["responses"].push_back(new_response);
      auto parsed = parse(grown);
      if (auto* error = std::get_if<MbError>(&parsed)) return *error;
      out.stubs[i] = std::get<ir::Stub>(std::move(parsed));  // keeps its place in the cycle
      return out;
    }
  }
  ir::Json source = ir::Json::object();
  source["predicates"] = predicates;
  source["responses"] = ir::Json::array({new_response});
  auto parsed = parse(source);
  if (auto* error = std::get_if<MbError>(&parsed)) return *error;
  const size_t at = mode == "proxyAlways" ? stubs.size() : proxy_index;
  out.stubs.insert(out.stubs.begin() + static_cast<long>(at),
                   std::get<ir::Stub>(std::move(parsed)));
  out.keep.insert(out.keep.begin() + static_cast<long>(at), -1);
  return out;
}

}  // namespace rift::proxy
