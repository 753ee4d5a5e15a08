#include "frontends/route_table.h"

#include <algorithm>
#include <set>

#include "compiler/ascii.h"
#include "frontends/predicate_parser.h"

namespace rift::frontends {

namespace {

// RFC 9110's token characters: what a method may be made of.
bool is_token(std::string_view text) {
  if (text.empty()) return false;
  return std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
  });
}

std::optional<std::string> optional_string(const ir::Json& object, const char* name,
                                           const std::string& where, std::string& error) {
  auto it = object.find(name);
  if (it == object.end() || it->is_null()) return std::nullopt;
  if (!it->is_string()) {
    error = where + ": '" + name + "' must be a string";
    return std::nullopt;
  }
  return it->get<std::string>();
}

std::variant<Route, std::string> parse_route(const ir::Json& given, size_t index) {
  const std::string at = "routes[" + std::to_string(index) + "]";
  if (!given.is_object()) return at + " must be an object";
  Route route;
  route.source = given;
  auto id = given.find("id");
  if (id == given.end() || !id->is_string()) return at + ": 'id' must be a string";
  route.id = id->get<std::string>();
  if (route.id.empty()) return std::string("route id must not be empty");
  const std::string where = "route '" + route.id + "'";
  if (auto priority = given.find("priority"); priority != given.end() && !priority->is_null()) {
    if (!priority->is_number_integer()) return where + ": 'priority' must be a whole number";
    route.priority = priority->get<int>();
  }
  if (auto enabled = given.find("enabled"); enabled != given.end() && !enabled->is_null()) {
    if (!enabled->is_boolean()) return where + ": 'enabled' must be true or false";
    route.enabled = enabled->get<bool>();
  }
  std::string error;
  const ir::Json no_match = ir::Json::object();
  auto match = given.find("match");
  const ir::Json& clauses = match == given.end() || match->is_null() ? no_match : *match;
  if (!clauses.is_object()) return where + ": 'match' must be an object";
  route.host = optional_string(clauses, "host", where, error);
  route.path_prefix = optional_string(clauses, "path_prefix", where, error);
  route.method = optional_string(clauses, "method", where, error);
  if (!error.empty()) return error;
  if (auto headers = clauses.find("headers"); headers != clauses.end() && !headers->is_null()) {
    if (!headers->is_array()) return where + ": 'headers' must be a list of {name, value}";
    for (const ir::Json& header : *headers) {
      auto name = header.is_object() ? header.find("name") : header.end();
      auto value = header.is_object() ? header.find("value") : header.end();
      if (!header.is_object() || name == header.end() || !name->is_string() ||
          value == header.end() || !value->is_string()) {
        return where + ": 'headers' must be a list of {name, value}";
      }
      route.headers.emplace_back(ascii::lower(name->get<std::string>()), value->get<std::string>());
    }
  }
  auto target = given.find("target");
  if (target == given.end() || !target->is_object()) return where + ": 'target' must be an object";
  auto port = target->find("port");
  if (port == target->end() || !port->is_number_integer() || port->get<int64_t>() < 1 ||
      port->get<int64_t>() > 65535) {
    return where + ": 'target.port' must be a port number";
  }
  route.port = port->get<int>();
  if (auto strip = target->find("strip_prefix"); strip != target->end() && !strip->is_null()) {
    if (!strip->is_boolean()) return where + ": 'target.strip_prefix' must be true or false";
    route.strip_prefix = strip->get<bool>();
  }
  route.set_host = optional_string(*target, "set_host", where, error);
  if (!error.empty()) return error;

  // The contract's checks, with its messages.
  if (route.strip_prefix && !route.path_prefix) {
    return where + " sets strip_prefix but has no path_prefix to strip";
  }
  if (route.host) {
    const std::string rest = route.host->starts_with("*.") ? route.host->substr(2) : *route.host;
    if (rest.empty() || rest.find('*') != std::string::npos) {
      return where + " has host '" + *route.host +
             "': a wildcard is one leading '*.' label (like '*.payments.test'), and nothing "
             "else may contain '*'";
    }
    route.host = ascii::lower(*route.host);
  }
  if (route.path_prefix && !route.path_prefix->starts_with('/')) {
    return where + " has path_prefix '" + *route.path_prefix + "', which must start with '/'";
  }
  if (route.method) {
    if (!is_token(*route.method)) {
      return where + " has method '" + *route.method + "', which is not a valid HTTP method";
    }
    route.method = ascii::upper(*route.method);
  }
  return route;
}

// Lower is tried first: an exact host, then a wildcard, then none.
int host_rank(const Route& route) {
  if (!route.host) return 2;
  return route.host->starts_with("*.") ? 1 : 0;
}

size_t prefix_length(const Route& route) {
  return route.path_prefix ? route.path_prefix->size() : 0;
}

// The clauses as Mountebank predicates over the routing request: header names in lower case,
// `host` the request's host in lower case without its port. All case-sensitive.
ir::Json predicates_of(const Route& route) {
  ir::Json all = ir::Json::array();
  const auto exact = [](const char* op, ir::Json fields) {
    return ir::Json{{op, std::move(fields)}, {"caseSensitive", true}};
  };
  if (route.host) {
    if (route.host->starts_with("*.")) {
      all.push_back(exact("endsWith", {{"headers", {{"host", route.host->substr(1)}}}}));
    } else {
      all.push_back(exact("equals", {{"headers", {{"host", *route.host}}}}));
    }
  }
  if (route.path_prefix) {
    std::string prefix = *route.path_prefix;
    while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
    // "/" (or "") is every path; "/api" is "/api" and what lies beneath it, never "/apix".
    if (!prefix.empty()) {
      all.push_back({{"or", ir::Json::array({exact("equals", {{"path", prefix}}),
                                             exact("startsWith", {{"path", prefix + "/"}})})}});
    }
  }
  for (const auto& [name, value] : route.headers) {
    all.push_back(exact("equals", {{"headers", {{name, value}}}}));
  }
  if (route.method) all.push_back(exact("equals", {{"method", *route.method}}));
  return all;
}

}  // namespace

std::variant<RouteTable, std::string> parse_route_table(const ir::Json& block) {
  const ir::Json* list = &block;
  if (block.is_object()) {
    auto routes = block.find("routes");
    if (routes == block.end()) return std::string("expected {\"routes\": [...]}");
    list = &*routes;
  }
  if (list->is_null()) return RouteTable{};
  if (!list->is_array()) return std::string("'routes' must be a list of routes");
  RouteTable table;
  table.source = *list;
  std::vector<Route> all;
  std::set<std::string> ids;
  for (size_t i = 0; i < list->size(); ++i) {
    auto parsed = parse_route((*list)[i], i);
    if (auto* error = std::get_if<std::string>(&parsed)) return *error;
    Route& route = std::get<Route>(parsed);
    if (!ids.insert(route.id).second) return "duplicate route id '" + route.id + "'";
    all.push_back(std::move(route));
  }
  for (Route& route : all) {
    if (route.enabled) table.routes.push_back(std::move(route));
  }
  // Two enabled routes that claim exactly the same requests at the same priority: which one
  // answers would depend on their ids, which nobody chose for that.
  for (size_t i = 0; i < table.routes.size(); ++i) {
    for (size_t j = i + 1; j < table.routes.size(); ++j) {
      const Route& a = table.routes[i];
      const Route& b = table.routes[j];
      if (a.priority == b.priority && a.host == b.host && a.path_prefix == b.path_prefix &&
          a.headers == b.headers && a.method == b.method) {
        return "routes '" + a.id + "' and '" + b.id +
               "' are both enabled and match exactly the same requests; give one of them a "
               "narrower match, or disable one";
      }
    }
  }
  std::stable_sort(table.routes.begin(), table.routes.end(), [](const Route& a, const Route& b) {
    if (a.priority != b.priority) return a.priority > b.priority;
    if (host_rank(a) != host_rank(b)) return host_rank(a) < host_rank(b);
    if (prefix_length(a) != prefix_length(b)) return prefix_length(a) > prefix_length(b);
    if (a.headers.size() != b.headers.size()) return a.headers.size() > b.headers.size();
    return a.id < b.id;
  });
  for (const Route& route : table.routes) {
    ir::Stub stub;
    for (const ir::Json& predicate : predicates_of(route)) {
      auto parsed = parse_predicate(predicate);
      if (auto* error = std::get_if<MbError>(&parsed)) {
        return "route '" + route.id + "': " + error->message;
      }
      stub.predicates.push_back(std::get<ir::Predicate>(std::move(parsed)));
    }
    stub.id = route.id;
    table.stubs.push_back(std::move(stub));
  }
  return table;
}

}  // namespace rift::frontends
