// The front door's route table (frontends/route_table.*): the contract's derived order and its
// load-time refusals, and the stubs it lowers to, matched by the interpreter against routing
// requests as the front door builds them.
#include "frontends/route_table.h"

#include <gtest/gtest.h>

#include "compiler/interpreter.h"
#include "compiler/plan.h"
#include "compiler/predicate_eval.h"

namespace rift::frontends {
namespace {

RouteTable table(const char* text) {
  auto parsed = parse_route_table(ir::Json::parse(text));
  if (auto* error = std::get_if<std::string>(&parsed)) ADD_FAILURE() << *error;
  return std::get<RouteTable>(std::move(parsed));
}

std::string refusal(const char* text) {
  auto parsed = parse_route_table(ir::Json::parse(text));
  auto* error = std::get_if<std::string>(&parsed);
  return error ? *error : "(accepted)";
}

std::vector<std::string> order(const RouteTable& routes) {
  std::vector<std::string> ids;
  for (const auto& route : routes.routes) ids.push_back(route.id);
  return ids;
}

// The id of the route that wins a routing request (header names lower case, host normalized).
std::string winner(const RouteTable& routes, const std::string& method, const std::string& path,
                   KeyValues headers) {
  auto tree = plan::build(routes.stubs);
  EXPECT_TRUE(std::holds_alternative<std::shared_ptr<const plan::Tree>>(tree));
  Interpreter interpreter(std::get<std::shared_ptr<const plan::Tree>>(tree));
  Request request;
  request.method = method;
  request.path = path;
  request.headers = std::move(headers);
  RequestContext context(request);
  const int index = interpreter.match(context);
  return index == kNoMatch ? "(none)" : routes.routes[static_cast<size_t>(index)].id;
}

TEST(RouteTable, OrderIsPriorityThenSpecificityThenId) {
  const auto routes = table(R"([
    {"id": "z-catch-all", "target": {"port": 1}},
    {"id": "wild", "match": {"host": "*.a.test"}, "target": {"port": 2}},
    {"id": "exact", "match": {"host": "x.a.test"}, "target": {"port": 3}},
    {"id": "long", "match": {"path_prefix": "/api/v1"}, "target": {"port": 4}},
    {"id": "short", "match": {"path_prefix": "/api"}, "target": {"port": 5}},
    {"id": "headers", "match": {"path_prefix": "/api", "headers": [{"name": "X-A", "value": "1"}]},
     "target": {"port": 6}},
    {"id": "b-urgent", "priority": 9, "match": {"method": "delete"}, "target": {"port": 7}},
    {"id": "a-urgent", "priority": 9, "match": {"method": "put"}, "target": {"port": 8}},
    {"id": "off", "enabled": false, "target": {"port": 9}}])");
  EXPECT_EQ(order(routes), (std::vector<std::string>{"a-urgent", "b-urgent", "exact", "wild",
                                                     "long", "headers", "short", "z-catch-all"}));
  EXPECT_EQ(routes.source.size(), 9u);  // the disabled route is kept for GET
}

TEST(RouteTable, ClausesMatchAsTheContractSays) {
  const auto routes = table(R"({"routes": [
    {"id": "wild", "match": {"host": "*.a.test"}, "target": {"port": 2}},
    {"id": "api", "match": {"path_prefix": "/api/", "method": "get"}, "target": {"port": 4}},
    {"id": "tenant", "match": {"headers": [{"name": "X-Tenant", "value": "acme"}]},
     "target": {"port": 6}}]})");
  const KeyValues none = {{"host", ""}};
  EXPECT_EQ(winner(routes, "GET", "/", {{"host", "x.a.test"}}), "wild");
  EXPECT_EQ(winner(routes, "GET", "/", {{"host", "y.x.a.test"}}), "wild");
  EXPECT_EQ(winner(routes, "GET", "/", {{"host", "a.test"}}), "(none)");      // no subdomain
  EXPECT_EQ(winner(routes, "GET", "/", {{"host", "evila.test"}}), "(none)");  // label boundary
  EXPECT_EQ(winner(routes, "GET", "/api", none), "api");
  EXPECT_EQ(winner(routes, "GET", "/api/x", none), "api");
  EXPECT_EQ(winner(routes, "GET", "/apix", none), "(none)");  // segment-aligned
  EXPECT_EQ(winner(routes, "GET", "/API", none), "(none)");   // paths are exact
  EXPECT_EQ(winner(routes, "POST", "/api", none), "(none)");
  EXPECT_EQ(winner(routes, "GET", "/", {{"host", ""}, {"x-tenant", "acme"}}), "tenant");
  EXPECT_EQ(winner(routes, "GET", "/", {{"host", ""}, {"x-tenant", "ACME"}}), "(none)");
}

TEST(RouteTable, RefusalsNameTheRoute) {
  EXPECT_EQ(refusal(R"([{"id": "a", "target": {"port": 1}}, {"id": "a", "target": {"port": 2}}])"),
            "duplicate route id 'a'");
  EXPECT_EQ(refusal(R"([{"id": "a", "match": {"host": "x.test"}, "target": {"port": 1}},
                       {"id": "b", "match": {"host": "X.test"}, "target": {"port": 2}}])"),
            "routes 'a' and 'b' are both enabled and match exactly the same requests; give one of "
            "them a narrower match, or disable one");
  // The same match at another priority, or disabled, is how a change is staged.
  EXPECT_EQ(refusal(R"([{"id": "a", "target": {"port": 1}},
                       {"id": "b", "priority": 1, "target": {"port": 2}},
                       {"id": "c", "enabled": false, "target": {"port": 3}}])"),
            "(accepted)");
  EXPECT_EQ(refusal(R"([{"id": "s", "target": {"port": 1, "strip_prefix": true}}])"),
            "route 's' sets strip_prefix but has no path_prefix to strip");
  EXPECT_EQ(refusal(R"([{"id": "h", "match": {"host": "a.*.test"}, "target": {"port": 1}}])"),
            "route 'h' has host 'a.*.test': a wildcard is one leading '*.' label (like "
            "'*.payments.test'), and nothing else may contain '*'");
  EXPECT_EQ(refusal(R"([{"id": "m", "match": {"method": "GE T"}, "target": {"port": 1}}])"),
            "route 'm' has method 'GE T', which is not a valid HTTP method");
  EXPECT_EQ(refusal(R"([{"id": "p", "match": {"path_prefix": "api"}, "target": {"port": 1}}])"),
            "route 'p' has path_prefix 'api', which must start with '/'");
  EXPECT_EQ(refusal(R"([{"id": "", "target": {"port": 1}}])"), "route id must not be empty");
  EXPECT_EQ(refusal(R"([{"id": "t", "target": {"port": 70000}}])"),
            "route 't': 'target.port' must be a port number");
  EXPECT_EQ(refusal(R"({"routes": 5})"), "'routes' must be a list of routes");
}

}  // namespace
}  // namespace rift::frontends
