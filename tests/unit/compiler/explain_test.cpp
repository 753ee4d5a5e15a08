// explain(): the matched stub and the walk through the tree; on a miss, the near misses with the
// first failing clause named by field, for each operator family.
#include "compiler/explain.h"

#include <gtest/gtest.h>

#include "compiler/interpreter.h"
#include "compiler/predicate_json.h"
#include "predicate_test_util.h"

namespace rift {
namespace {

using testing::predicate_from;

ir::Stub stub(const char* predicates_json) {
  ir::Stub out;
  for (const auto& predicate : ir::Json::parse(predicates_json)) {
    out.predicates.push_back(predicate_from(predicate));
  }
  out.responses.push_back(ir::Response{});
  return out;
}

using testing::request;

ir::Json run(const std::vector<ir::Stub>& stubs, const Request& r) {
  auto built = plan::build(stubs);
  auto tree = std::get<std::shared_ptr<const plan::Tree>>(built);
  ir::Json report = explain(*tree, stubs, r);
  // explain must agree with the interpreter it explains.
  RequestContext context(r);
  const int expected = Interpreter(tree).match(context);
  EXPECT_EQ(report["matched"].is_null() ? kNoMatch : report["matched"].get<int>(), expected)
      << report.dump(2);
  return report;
}

ir::Json first_miss(const ir::Json& report) {
  EXPECT_TRUE(report["matched"].is_null()) << report.dump(2);
  EXPECT_FALSE(report["nearMisses"].empty()) << report.dump(2);
  return report["nearMisses"][0];
}

TEST(Explain, MatchedStubAndTreePath) {
  std::vector<ir::Stub> stubs = {
      stub(R"([{"equals": {"method": "GET", "path": "/users"}},
               {"exists": {"headers": {"X-Trace": true}}}])"),
      stub(R"([{"equals": {"method": "GET", "path": "/users"}}])"),
      stub(R"([{"equals": {"method": "POST"}}])"),
  };
  const ir::Json report = run(stubs, request("GET", "/users", {{"page", "2"}}));
  EXPECT_EQ(report["matched"], 1);
  EXPECT_EQ(report["candidatesVisited"], 2);
  EXPECT_TRUE(report["nearMisses"].empty());
  const ir::Json& path = report["path"];
  ASSERT_EQ(path.size(), 5u) << path.dump(2);
  EXPECT_EQ(path[0]["step"], "method");
  EXPECT_EQ(path[0]["result"], "hit");
  EXPECT_EQ(path[1]["step"], "path");
  EXPECT_EQ(path[1]["method"], "GET");
  EXPECT_EQ(path[1]["result"], "hit");
  EXPECT_EQ(path[1]["candidates"], 2);
  EXPECT_FALSE(path[1].contains("prefixes"));
  EXPECT_EQ(path[2]["method"], "*");
  EXPECT_EQ(path[2]["result"], "fallback");
  EXPECT_EQ(path[3]["stub"], 0);
  EXPECT_EQ(path[3]["result"], "failed");
  EXPECT_EQ(path[3]["index"], 1);
  EXPECT_NE(path[3]["reason"].get<std::string>().find("X-Trace"), std::string::npos)
      << path[3].dump();
  EXPECT_EQ(path[4]["stub"], 1);
  EXPECT_EQ(path[4]["leaf"], "GET /users");
  EXPECT_EQ(path[4]["result"], "matched");

  const std::string text = explain_to_text(report);
  EXPECT_NE(text.find("matched: stub 1"), std::string::npos) << text;
  EXPECT_NE(text.find("request: GET /users?page=2"), std::string::npos) << text;
}

// A stub routed by its query value is not offered to a request with another value: the value
// step says which values were looked up and how many candidates they reached.
TEST(Explain, ValueIndexStep) {
  std::vector<ir::Stub> stubs = {
      stub(
          R"([{"equals": {"method": "GET", "path": "/users"}}, {"equals": {"query": {"page": "1"}}}])"),
      stub(
          R"([{"equals": {"method": "GET", "path": "/users"}}, {"equals": {"query": {"page": "4"}}}])"),
      stub(R"([{"equals": {"method": "GET", "path": "/users"}}])"),
  };
  const ir::Json report = run(stubs, request("GET", "/users", {{"page", "2"}, {"Page", "3"}}));
  EXPECT_EQ(report["matched"], 2);
  EXPECT_EQ(report["candidatesVisited"], 1);
  const ir::Json& path = report["path"];
  ASSERT_EQ(path.size(), 5u) << path.dump(2);
  EXPECT_EQ(path[1]["candidates"], 1);
  EXPECT_EQ(path[2], ir::Json::parse(R"({"step": "value", "cell": "GET /users", "field": "query",
                                        "key": "page", "values": ["2", "3"], "candidates": 0})"));
  EXPECT_EQ(path[3]["method"], "*");
  EXPECT_EQ(path[4]["stub"], 2);

  const std::string text = explain_to_text(report);
  EXPECT_NE(text.find("  query page in GET /users: 2, 3 -> 0 candidates\n"), std::string::npos)
      << text;

  const ir::Json hit = run(stubs, request("GET", "/users", {{"PAGE", "1"}}));
  EXPECT_EQ(hit["matched"], 0);
  EXPECT_EQ(hit["path"][2]["candidates"], 1);
}

// Prefix cells, header routing, and a near miss the dispatch never offered.
TEST(Explain, PrefixAndHeaderRouting) {
  std::vector<ir::Stub> stubs = {
      stub(R"([{"startsWith": {"path": "/api/"}}, {"equals": {"headers": {"X-Tenant": "a"}}}])"),
      stub(R"([{"startsWith": {"path": "/api/"}}, {"equals": {"headers": {"X-Tenant": "c"}}}])"),
      stub(R"([{"matches": {"path": "^/api/v1/"}}])"),
      stub(R"([{"startsWith": {"path": "/api/"}}])"),
  };
  const ir::Json report = run(stubs, request("GET", "/API/v1/x", {}, {{"x-tenant", "B"}}));
  EXPECT_EQ(report["matched"], 2);
  const ir::Json& path = report["path"];
  ASSERT_GE(path.size(), 4u) << path.dump(2);
  EXPECT_EQ(path[0]["result"], "fallback");
  EXPECT_EQ(path[1]["method"], "*");
  EXPECT_EQ(path[1]["result"], "fallback");
  EXPECT_EQ(path[1]["prefixes"], ir::Json::parse(R"([{"prefix": "/api/", "candidates": 1},
                                                     {"prefix": "/api/v1/", "candidates": 1}])"));
  EXPECT_EQ(path[2]["cell"], "* /api/*");
  EXPECT_EQ(path[2]["field"], "headers");
  EXPECT_EQ(path[2]["values"], ir::Json::parse(R"(["b"])"));
  EXPECT_EQ(path[3], ir::Json::parse(R"({"step": "candidate", "stub": 2, "leaf": "* /api/v1/*",
                                        "result": "matched"})"))
      << path[3].dump();

  const std::string text = explain_to_text(report);
  EXPECT_NE(text.find("path /API/v1/x under any method: fallback (0 exact, 2 prefix, 0 any-path "
                      "candidates)"),
            std::string::npos)
      << text;

  const ir::Json miss = run(stubs, request("GET", "/other", {}, {{"X-Tenant", "a"}}));
  ASSERT_EQ(miss["nearMisses"].size(), 3u);
  for (const auto& near : miss["nearMisses"]) EXPECT_FALSE(near["candidate"].get<bool>());
}

TEST(Explain, UnknownMethodFallsBack) {
  std::vector<ir::Stub> stubs = {stub(R"([{"equals": {"method": "GET"}}])"), stub("[]")};
  const ir::Json report = run(stubs, request("PATCH", "/x"));
  EXPECT_EQ(report["matched"], 1);
  EXPECT_EQ(report["path"][0]["result"], "fallback");
  EXPECT_EQ(report["path"][1]["method"], "*");
}

TEST(Explain, EqualsOnQuery) {
  std::vector<ir::Stub> stubs = {
      stub(R"([{"equals": {"path": "/items", "query": {"sort": "asc", "page": "1"}}}])")};
  const ir::Json miss =
      first_miss(run(stubs, request("GET", "/items", {{"sort", "ASC"}, {"page", "3"}})));
  EXPECT_EQ(miss["stub"], 0);
  EXPECT_EQ(miss["passedClauses"], 2);  // path, query.sort (case-insensitive)
  const ir::Json& failed = miss["failedClause"];
  EXPECT_EQ(failed["index"], 0);
  EXPECT_EQ(failed["field"], "query.page");
  EXPECT_EQ(failed["expected"], "1");
  EXPECT_EQ(failed["actual"], "3");
  EXPECT_EQ(failed["reason"], "equals: expected '1' but the request has '3'");
  EXPECT_EQ(failed["clause"], ir::Json::parse(R"({"equals": {"query": {"page": "1"}}})"));
  EXPECT_EQ(failed["predicate"], predicate_to_json(stubs[0].predicates[0]));
}

TEST(Explain, MissingQueryParameter) {
  std::vector<ir::Stub> stubs = {stub(R"([{"equals": {"query": {"page": "1"}}}])")};
  const ir::Json failed = first_miss(run(stubs, request("GET", "/")))["failedClause"];
  EXPECT_EQ(failed["field"], "query.page");
  EXPECT_FALSE(failed.contains("actual"));
  EXPECT_EQ(failed["reason"], "equals: expected '1' but the request has no query.page");
}

TEST(Explain, HeaderNamesAreCaseInsensitive) {
  std::vector<ir::Stub> stubs = {stub(
      R"([{"equals": {"headers": {"Content-Type": "application/json", "X-Tenant": "acme"}}}])")};
  const ir::Json miss = first_miss(
      run(stubs,
          request("GET", "/", {}, {{"content-type", "application/json"}, {"x-tenant", "other"}})));
  EXPECT_EQ(miss["passedClauses"], 1);
  EXPECT_EQ(miss["failedClause"]["field"], "headers.X-Tenant");
  EXPECT_EQ(miss["failedClause"]["actual"], "other");
}

TEST(Explain, JsonBodyField) {
  std::vector<ir::Stub> stubs = {
      stub(R"([{"equals": {"body": {"user": {"name": "ann", "role": "admin"}}}}])")};
  const ir::Json miss = first_miss(
      run(stubs, request("POST", "/", {}, {}, R"({"user": {"name": "ann", "role": "guest"}})")));
  EXPECT_EQ(miss["passedClauses"], 1);
  const ir::Json& failed = miss["failedClause"];
  EXPECT_EQ(failed["field"], "body.user.role");
  EXPECT_EQ(failed["expected"], "admin");
  EXPECT_EQ(failed["actual"], "guest");
  EXPECT_EQ(failed["reason"], "equals: expected 'admin' but the request has 'guest'");
}

TEST(Explain, JsonPathSelection) {
  std::vector<ir::Stub> stubs = {
      stub(R"([{"equals": {"body": "7"}, "jsonpath": {"selector": "$.order.id"}}])")};
  const ir::Json failed = first_miss(
      run(stubs, request("POST", "/", {}, {}, R"({"order": {"id": 8}})")))["failedClause"];
  EXPECT_EQ(failed["field"], "body");
  EXPECT_EQ(failed["actual"], 8);
  EXPECT_EQ(failed["reason"], "equals: expected '7' but the request has 8");
}

TEST(Explain, MethodMismatchDecidedByDispatch) {
  std::vector<ir::Stub> stubs = {
      stub(R"([{"equals": {"method": "DELETE"}}])"),
      stub(R"([{"equals": {"path": "/orders", "method": "POST"}}])"),
  };
  const ir::Json report = run(stubs, request("GET", "/orders"));
  EXPECT_EQ(report["candidatesVisited"], 0);  // the dispatch offers neither stub
  const ir::Json miss = first_miss(report);
  EXPECT_EQ(miss["stub"], 1);  // its path clause passes before the method clause fails
  EXPECT_EQ(miss["passedClauses"], 1);
  EXPECT_FALSE(miss["candidate"].get<bool>());
  EXPECT_EQ(miss["failedClause"]["field"], "method");
  EXPECT_EQ(miss["failedClause"]["expected"], "POST");
  EXPECT_EQ(miss["failedClause"]["actual"], "GET");
  EXPECT_EQ(miss["failedClause"]["reason"], "equals: expected 'POST' but the request has 'GET'");
}

TEST(Explain, RanksByClausesPassedThenIndex) {
  std::vector<ir::Stub> stubs = {
      stub(R"([{"equals": {"path": "/nope"}}])"),
      stub(R"([{"equals": {"path": "/a", "query": {"x": "1", "y": "2"}}}])"),
      stub(R"([{"equals": {"path": "/a", "query": {"x": "9"}}}])"),
      stub(R"([{"equals": {"path": "/b"}}])"),
  };
  const ir::Json report = run(stubs, request("GET", "/a", {{"x", "1"}}));
  ASSERT_EQ(report["nearMisses"].size(), 3u);
  EXPECT_EQ(report["nearMisses"][0]["stub"], 1);  // path, query.x pass
  EXPECT_EQ(report["nearMisses"][0]["passedClauses"], 2);
  EXPECT_EQ(report["nearMisses"][1]["stub"], 2);
  EXPECT_EQ(report["nearMisses"][2]["stub"], 0);  // 0 passed; lower index than stub 3
}

TEST(Explain, DeepEquals) {
  std::vector<ir::Stub> stubs = {stub(R"([{"deepEquals": {"query": {"a": "1"}}}])")};
  const ir::Json failed =
      first_miss(run(stubs, request("GET", "/", {{"a", "1"}, {"b", "2"}})))["failedClause"];
  EXPECT_EQ(failed["field"], "query");
  EXPECT_EQ(failed["actual"], ir::Json::parse(R"({"a": "1", "b": "2"})"));
  EXPECT_EQ(failed["reason"],
            R"(deepEquals: expected exactly {"a":"1"} but the request has {"a":"1","b":"2"})"
            " (unexpected: b)");
}

TEST(Explain, Matches) {
  std::vector<ir::Stub> stubs = {stub(R"([{"matches": {"path": "^/v[0-9]+/users$"}}])")};
  const ir::Json failed = first_miss(run(stubs, request("GET", "/vx/users")))["failedClause"];
  EXPECT_EQ(failed["field"], "path");
  EXPECT_EQ(failed["reason"], "matches: '/vx/users' does not match /^/v[0-9]+/users$/i");
}

TEST(Explain, Exists) {
  std::vector<ir::Stub> stubs = {
      stub(R"([{"exists": {"headers": {"Authorization": true}, "query": {"debug": false}}}])")};
  const ir::Json report =
      run(stubs, request("GET", "/", {{"debug", "1"}}, {{"Authorization", "Bearer x"}}));
  const ir::Json miss = first_miss(report);
  EXPECT_EQ(miss["passedClauses"], 1);
  EXPECT_EQ(miss["failedClause"]["field"], "query.debug");
  EXPECT_EQ(miss["failedClause"]["reason"],
            "exists: expected query.debug to be absent but the request has '1'");

  const ir::Json absent = first_miss(run(stubs, request("GET", "/")))["failedClause"];
  EXPECT_EQ(absent["field"], "headers.Authorization");
  EXPECT_EQ(absent["reason"],
            "exists: expected headers.Authorization to be present but the request has none");
}

TEST(Explain, NotOrAnd) {
  std::vector<ir::Stub> stubs = {stub(R"([
    {"and": [{"equals": {"path": "/a"}}, {"not": {"equals": {"query": {"mode": "test"}}}}]},
    {"or": [{"equals": {"method": "PUT"}}, {"startsWith": {"path": "/admin"}}]}
  ])")};
  // The not fails: the request satisfies its child.
  const ir::Json not_miss = first_miss(run(stubs, request("GET", "/a", {{"mode", "test"}})));
  EXPECT_EQ(not_miss["passedClauses"], 1);
  EXPECT_EQ(not_miss["failedClause"]["index"], 0);
  EXPECT_EQ(not_miss["failedClause"]["clause"],
            ir::Json::parse(R"({"not": {"equals": {"query": {"mode": "test"}}}})"));
  EXPECT_EQ(not_miss["failedClause"]["reason"],
            R"(not: the request satisfies {"equals":{"query":{"mode":"test"}}})");

  // The and holds (two clauses), then the or fails with each alternative explained.
  const ir::Json or_miss = first_miss(run(stubs, request("GET", "/a")));
  EXPECT_EQ(or_miss["passedClauses"], 2);
  const ir::Json& failed = or_miss["failedClause"];
  EXPECT_EQ(failed["index"], 1);
  EXPECT_EQ(failed["reason"], "or: none of the 2 alternatives holds");
  ASSERT_EQ(failed["alternatives"].size(), 2u);
  EXPECT_EQ(failed["alternatives"][0]["field"], "method");
  EXPECT_EQ(failed["alternatives"][1]["reason"],
            "startsWith: expected '/a' to start with '/admin'");
}

TEST(Explain, ArrayElementsMustMatchTogether) {
  std::vector<ir::Stub> stubs = {stub(R"([{"equals": {"body": {"a": "1", "b": "4"}}}])")};
  const ir::Json miss = first_miss(
      run(stubs, request("POST", "/", {}, {}, R"([{"a": "1", "b": "2"}, {"a": "3", "b": "4"}])")));
  EXPECT_EQ(miss["passedClauses"], 2);
  EXPECT_NE(miss["failedClause"]["reason"].get<std::string>().find("no single array element"),
            std::string::npos);
}

TEST(Explain, ThreeNearMissesAmong310Stubs) {
  std::vector<ir::Stub> stubs;
  for (int i = 0; i < 310; ++i) {
    const std::string json = R"([{"equals": {"method": "GET", "path": "/api/v1/resource)" +
                             std::to_string(i) + R"("}}, {"equals": {"query": {"v": ")" +
                             std::to_string(i) + R"("}}}])";
    stubs.push_back(stub(json.c_str()));
  }
  const ir::Json report = run(stubs, request("GET", "/api/v1/resource42", {{"v", "7"}}));
  EXPECT_EQ(report["candidatesVisited"], 1);  // alone in its cell, v=42 is not indexed
  ASSERT_EQ(report["nearMisses"].size(), 3u);
  const ir::Json& best = report["nearMisses"][0];
  EXPECT_EQ(best["stub"], 42);
  EXPECT_EQ(best["passedClauses"], 2);
  EXPECT_TRUE(best["candidate"].get<bool>());
  EXPECT_EQ(best["failedClause"]["field"], "query.v");
  EXPECT_EQ(report["nearMisses"][1]["stub"], 0);  // method passes, path fails
  EXPECT_EQ(report["nearMisses"][2]["stub"], 1);

  const std::string text = explain_to_text(report);
  EXPECT_NE(text.find("near misses:"), std::string::npos) << text;
  EXPECT_NE(text.find("stub 42: 2 clauses passed, then query.v failed"), std::string::npos) << text;
}

TEST(Explain, InjectErrorIsReported) {
  std::vector<ir::Stub> stubs = {stub(R"([{"inject": "function () { return true; }"}])")};
  auto tree = std::get<std::shared_ptr<const plan::Tree>>(plan::build(stubs));
  const ir::Json report = explain(*tree, stubs, request("GET", "/"));
  EXPECT_TRUE(report["matched"].is_null());
  EXPECT_TRUE(report.contains("error"));
  EXPECT_EQ(report["path"].back()["result"], "error");
  EXPECT_EQ(
      report["nearMisses"][0]["failedClause"]["reason"].get<std::string>().rfind("error: ", 0), 0u);
}

}  // namespace
}  // namespace rift
