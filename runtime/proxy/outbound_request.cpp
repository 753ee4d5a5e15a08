#include "runtime/proxy/outbound_request.h"

#include "compiler/ascii.h"
#include "compiler/js_value.h"

namespace rift::proxy {
namespace {

// A JavaScript object of header name -> value(s): exact names, first-appearance order.
struct HeaderObject {
  std::vector<std::pair<std::string, std::vector<std::string>>> entries;

  void set(const std::string& name, std::vector<std::string> values) {
    for (auto& entry : entries) {
      if (entry.first == name) {
        entry.second = std::move(values);
        return;
      }
    }
    entries.emplace_back(name, std::move(values));
  }
  bool has(std::string_view name) const {
    for (const auto& entry : entries) {
      if (ascii::iequals(entry.first, name)) return true;
    }
    return false;
  }
};

std::vector<std::string> values_of(const ir::Json& value) {
  std::vector<std::string> out;
  for (const ir::Json& one : value.is_array() ? value : ir::Json::array({value})) {
    out.push_back(js::to_string(one));  // Node writes `${value}`
  }
  return out;
}

const ir::Json* inject_headers_of(const ir::Json& proxy) {
  if (!proxy.is_object()) return nullptr;
  auto it = proxy.find("injectHeaders");
  return it != proxy.end() && it->is_object() ? &*it : nullptr;
}

std::string host_for(const Origin& origin) {
  const bool default_port = origin.port == (origin.tls ? "443" : "80");
  const std::string host =
      origin.host.find(':') != std::string::npos ? "[" + origin.host + "]" : origin.host;
  return default_port ? host : host + ":" + origin.port;
}

}  // namespace

OutboundRequest outbound_request(const http::Message& message, const ir::Json& proxy,
                                 const Origin& origin) {
  HeaderObject headers;
  for (const auto& [name, value] : message.headers) {
    bool added = false;
    for (auto& entry : headers.entries) {
      if (entry.first == name) {
        entry.second.push_back(value);
        added = true;
        break;
      }
    }
    if (!added) headers.entries.push_back({name, {value}});
  }
  const ir::Json* injected = inject_headers_of(proxy);
  if (injected != nullptr) {
    for (const auto& [name, value] : injected->items()) headers.set(name, values_of(value));
  }
  bool host_injected = false;
  if (injected != nullptr) {
    for (const auto& [name, value] : injected->items())
      host_injected |= ascii::iequals(name, "host");
  }
  if (!host_injected) headers.set("host", {host_for(origin)});
  if (!message.body.empty() && !headers.has("transfer-encoding") &&
      !headers.has("content-length")) {
    headers.set("Content-Length", {std::to_string(message.body.size())});
  }
  // Node's client keys headers by lower-cased name: a later spelling replaces an earlier one in
  // its place. Its agent keeps connections alive unless told otherwise.
  HeaderObject sent;
  for (auto& [name, values] : headers.entries) {
    bool replaced = false;
    for (auto& entry : sent.entries) {
      if (ascii::iequals(entry.first, name)) {
        entry = {name, values};
        replaced = true;
        break;
      }
    }
    if (!replaced) sent.entries.emplace_back(name, values);
  }
  if (!sent.has("connection")) sent.entries.push_back({"Connection", {"keep-alive"}});

  OutboundRequest out;
  out.method = message.method;
  out.target = message.target;
  for (auto& [name, values] : sent.entries) {
    for (auto& value : values) out.headers.emplace_back(name, std::move(value));
  }
  out.body = message.body;
  return out;
}

void inject_headers(ir::Json& request, const ir::Json& proxy) {
  const ir::Json* injected = inject_headers_of(proxy);
  if (injected == nullptr) return;
  if (!request["headers"].is_object()) request["headers"] = ir::Json::object();
  for (const auto& [name, value] : injected->items()) request["headers"][name] = value;
}

}  // namespace rift::proxy
