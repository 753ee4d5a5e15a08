#include "frontends/intercept_rules.h"

#include <algorithm>
#include <cctype>

#include "compiler/ascii.h"

namespace rift::frontends {

namespace {

constexpr const char* kActionShape =
    "'action' must be {\"serve\": {...}} or {\"forward\": {\"port\": N}}";

// A host as a certificate or a Host header can carry it: labels of letters, digits, '-' and
// '_', or an address literal.
bool is_host(std::string_view host) {
  if (host.empty() || host.size() > 253) return false;
  return std::all_of(host.begin(), host.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' ||
           c == ':' || c == '[' || c == ']';
  });
}

std::optional<std::string> check_serve(const ir::Json& serve) {
  if (!serve.is_object()) return std::string("'serve' must be an object");
  if (auto status = serve.find("statusCode"); status != serve.end() && !status->is_null()) {
    if (!status->is_number_integer() || status->get<int64_t>() < 100 ||
        status->get<int64_t>() > 599) {
      return std::string("'serve.statusCode' must be a whole number from 100 to 599");
    }
  }
  if (auto headers = serve.find("headers"); headers != serve.end() && !headers->is_null()) {
    if (!headers->is_object()) return std::string("'serve.headers' must be an object");
    for (const auto& [name, value] : headers->items()) {
      if (!value.is_string()) return "'serve.headers." + name + "' must be a string";
    }
  }
  if (auto body = serve.find("body"); body != serve.end() && !body->is_null()) {
    if (!body->is_string()) return std::string("'serve.body' must be a string");
  }
  return std::nullopt;
}

std::optional<std::string> check_rule(const ir::Json& rule) {
  if (!rule.is_object()) return std::string("a rule must be an object");
  if (auto host = rule.find("host"); host != rule.end() && !host->is_null()) {
    if (!host->is_string()) return std::string("'host' must be a string");
    std::string_view name = host->get_ref<const std::string&>();
    if (name.starts_with("*.")) name.remove_prefix(2);
    if (!is_host(name)) return "'host' is not a host name: '" + host->get<std::string>() + "'";
  }
  if (auto predicates = rule.find("predicates");
      predicates != rule.end() && !predicates->is_null() && !predicates->is_array()) {
    return std::string("'predicates' must be an array");
  }
  auto action = rule.find("action");
  if (action == rule.end() || !action->is_object() || action->size() != 1) return kActionShape;
  if (auto serve = action->find("serve"); serve != action->end()) return check_serve(*serve);
  if (auto forward = action->find("forward"); forward != action->end()) {
    auto port = forward->is_object() ? forward->find("port") : forward->end();
    if (!forward->is_object() || port == forward->end() || !port->is_number_integer() ||
        port->get<int64_t>() < 1 || port->get<int64_t>() > 65535) {
      return std::string("'forward.port' must be a port number from 1 to 65535");
    }
    return std::nullopt;
  }
  return kActionShape;
}

std::string escaped(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

// The Host header as sent may carry a port, and its case is the client's.
ir::Json host_predicate(std::string_view host) {
  std::string pattern = "^";
  if (host.starts_with("*.")) {
    pattern += "[^.:/\\[\\]]+(\\.[^.:/\\[\\]]+)*\\.";
    host.remove_prefix(2);
  }
  pattern += escaped(ascii::lower(host)) + "(:[0-9]+)?$";
  return ir::Json{{"matches", {{"headers", {{"host", pattern}}}}}};
}

}  // namespace

std::variant<ir::Json, std::string> read_intercept_rules(const ir::Json& value) {
  ir::Json rules = value.is_array() ? value : ir::Json::array({value});
  for (size_t i = 0; i < rules.size(); ++i) {
    if (auto error = check_rule(rules[i])) {
      return (value.is_array() ? "rules[" + std::to_string(i) + "]: " : std::string()) + *error;
    }
  }
  return rules;
}

ir::Json intercept_rule_stub(const ir::Json& rule) {
  ir::Json predicates = ir::Json::array();
  if (auto host = rule.find("host"); host != rule.end() && host->is_string()) {
    predicates.push_back(host_predicate(host->get<std::string>()));
  }
  if (auto given = rule.find("predicates"); given != rule.end() && given->is_array()) {
    for (const ir::Json& predicate : *given) predicates.push_back(predicate);
  }
  const ir::Json& action = rule.at("action");
  ir::Json response;
  if (auto serve = action.find("serve"); serve != action.end()) {
    ir::Json is = ir::Json::object();
    auto status = serve->find("statusCode");
    is["statusCode"] = status != serve->end() && !status->is_null() ? *status : ir::Json(200);
    if (auto headers = serve->find("headers"); headers != serve->end() && !headers->is_null()) {
      is["headers"] = *headers;
    }
    auto body = serve->find("body");
    is["body"] = body != serve->end() && !body->is_null() ? *body : ir::Json("");
    response = ir::Json{{"is", std::move(is)}};
  } else {
    const int port = action.at("forward").at("port").get<int>();
    response = ir::Json{
        {"proxy",
         {{"to", "http://127.0.0.1:" + std::to_string(port)}, {"mode", "proxyTransparent"}}}};
  }
  return ir::Json{{"predicates", std::move(predicates)},
                  {"responses", ir::Json::array({std::move(response)})}};
}

ir::Json intercept_fallback_stub() {
  return ir::Json{
      {"responses", ir::Json::array({{{"is",
                                       {{"statusCode", 200},
                                        {"headers", {{"content-type", "text/plain"}}},
                                        {"body",
                                         "rift intercepted ${request.method} ${request.path} for "
                                         "${request.headers.host}\n"}}}}})}};
}

}  // namespace rift::frontends
