// The front door's route tables (frontends/route_table.*) are stub lists like any other: lowered
// to predicates over a routing request and planned into one tree. Checked here as the generated
// stub lists are: every tier, and the interpreter with slow paths only, against the first-match
// scan, over requests chosen to sit on each clause's edges (wildcard label boundaries,
// segment-aligned prefixes, exact header values, methods).
#include <gtest/gtest.h>

#include "frontends/route_table.h"
#include "tests/equivalence/reference_scan.h"
#include "tests/equivalence/shrink.h"
#include "tests/equivalence/tiers.h"

namespace rift::equivalence {
namespace {

constexpr const char* kTable = R"({"routes": [
  {"id": "exact", "match": {"host": "pay.test"}, "target": {"port": 1}},
  {"id": "wild", "match": {"host": "*.pay.test"}, "target": {"port": 2}},
  {"id": "api", "match": {"path_prefix": "/api/"}, "target": {"port": 3}},
  {"id": "api-v1", "match": {"path_prefix": "/api/v1", "method": "post"}, "target": {"port": 4}},
  {"id": "tenant", "priority": 3,
   "match": {"headers": [{"name": "X-Tenant", "value": "acme"}], "path_prefix": "/t"},
   "target": {"port": 5}},
  {"id": "root-get", "match": {"path_prefix": "/", "method": "GET"}, "target": {"port": 6}},
  {"id": "off", "enabled": false, "target": {"port": 7}}]})";

Request routing(std::string method, std::string path, std::string host, KeyValues headers = {}) {
  Request out;
  out.method = std::move(method);
  out.path = std::move(path);
  out.headers.emplace_back("host", std::move(host));
  for (auto& header : headers) out.headers.push_back(std::move(header));
  return out;
}

TEST(FrontDoorEquivalence, RouteTablesAgreeWithFirstMatchScan) {
  auto parsed = frontends::parse_route_table(ir::Json::parse(kTable));
  ASSERT_TRUE(std::holds_alternative<frontends::RouteTable>(parsed));
  const std::vector<ir::Stub>& stubs = std::get<frontends::RouteTable>(parsed).stubs;
  const std::vector<Request> requests = {
      routing("GET", "/", "pay.test"),
      routing("POST", "/", "x.pay.test"),
      routing("POST", "/", "a.b.pay.test"),
      routing("POST", "/", "evilpay.test"),
      routing("POST", "/", ".pay.test"),
      routing("POST", "/api", ""),
      routing("POST", "/api/", ""),
      routing("POST", "/apix", ""),
      routing("POST", "/api/v1", ""),
      routing("POST", "/api/v1/x", ""),
      routing("POST", "/api/v1x", ""),
      routing("PUT", "/api/v1/x", ""),
      routing("post", "/api/v1", ""),
      routing("POST", "/API/v1", ""),
      routing("DELETE", "/t/x", "pay.test", {{"x-tenant", "acme"}}),
      routing("DELETE", "/t/x", "", {{"x-tenant", "ACME"}}),
      routing("DELETE", "/tx", "", {{"x-tenant", "acme"}}),
      routing("DELETE", "/t", "", {{"x-tenant", "acme"}, {"x-tenant", "other"}}),
      routing("GET", "/anything/at/all", "elsewhere.test"),
      routing("DELETE", "/anything", "elsewhere.test"),
  };
  // The scan itself routes as the contract says (so agreeing with it means something).
  const auto& routes = std::get<frontends::RouteTable>(parsed).routes;
  const auto id_of = [&](const Request& request) {
    const int stub = ReferenceScan(stubs).answer(request).stub;
    return stub == kNoMatch ? std::string("(none)") : routes[static_cast<size_t>(stub)].id;
  };
  EXPECT_EQ(id_of(requests[1]), "wild");
  EXPECT_EQ(id_of(requests[3]), "(none)");
  EXPECT_EQ(id_of(requests[8]), "api-v1");
  EXPECT_EQ(id_of(requests[10]), "api");
  EXPECT_EQ(id_of(requests[14]), "tenant");
  EXPECT_EQ(id_of(requests[18]), "root-get");
  std::vector<Tier> all = tiers();
  all.push_back(slow_interpreter_tier());
  for (const Tier& tier : all) {
    const Built built = tier.build(stubs);
    for (const Request& request : requests) {
      const Case c{stubs, request};
      EXPECT_EQ(answer_of(built, request), ReferenceScan(stubs).answer(request))
          << reproduction(tier, c);
    }
  }
}

}  // namespace
}  // namespace rift::equivalence
