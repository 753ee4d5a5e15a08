#include "compiler/request.h"

#include "compiler/ascii.h"

namespace rift {

ir::Json group_key_values(const KeyValues& pairs) {
  ir::Json out = ir::Json::object();
  for (const auto& [key, value] : pairs) {
    auto it = out.find(key);
    if (it == out.end()) {
      out[key] = value;
    } else if (it->is_array()) {
      it->push_back(value);
    } else {
      *it = ir::Json::array({*it, value});
    }
  }
  return out;
}

const std::string* find_ignoring_case(const KeyValues& pairs, std::string_view name) {
  for (const auto& [key, value] : pairs) {
    if (ascii::iequals(key, name)) return &value;
  }
  return nullptr;
}

namespace {

ir::Json tcp_json(const Request& request, const std::string& data) {
  ir::Json out = ir::Json::object();
  out["requestFrom"] = request.request_from;
  out["ip"] = request.ip;
  out["data"] = data;
  return out;
}

}  // namespace

ir::Json predicate_json(const Request& request) {
  if (request.protocol == Protocol::kTcp) return tcp_json(request, request.path);
  return to_json(request);
}

ir::Json to_json(const Request& request) {
  if (request.protocol == Protocol::kTcp) return tcp_json(request, request.body.value_or(""));
  if (request.protocol == Protocol::kSmtp) {
    return ir::Json::parse(request.body.value_or("{}"), nullptr, false);
  }
  ir::Json out = ir::Json::object();
  out["requestFrom"] = request.request_from;
  out["method"] = request.method;
  out["path"] = request.path;
  out["query"] = group_key_values(request.query);
  out["headers"] = group_key_values(request.headers);
  if (request.body) out["body"] = *request.body;
  out["ip"] = request.ip;
  if (request.form) out["form"] = group_key_values(*request.form);
  return out;
}

}  // namespace rift
