// The planner must never change which stub wins: the interpreter walking the tree is checked
// against a plain first-match scan over the same prepared predicates.
#include <gtest/gtest.h>

#include <random>

#include "compiler/interpreter.h"
#include "compiler/plan.h"
#include "compiler/predicate_context.h"
#include "predicate_test_util.h"

namespace rift {
namespace {

ir::Predicate equals(ir::Json fields, bool case_sensitive = false) {
  ir::Predicate predicate;
  predicate.op = ir::Op::kEquals;
  predicate.fields = std::move(fields);
  predicate.case_sensitive = case_sensitive;
  return predicate;
}

ir::Stub stub(std::vector<ir::Predicate> predicates) {
  ir::Stub out;
  out.predicates = std::move(predicates);
  out.responses.push_back(ir::Response{});
  return out;
}

// A stub from Mountebank predicate JSON: stub_of(R"([{"equals": ...}, ...])").
ir::Stub stub_of(const char* predicates) {
  std::vector<ir::Predicate> out;
  for (const auto& json : ir::Json::parse(predicates)) out.push_back(testing::predicate_from(json));
  return stub(std::move(out));
}

using testing::request;

std::shared_ptr<const plan::Tree> plan_of(const std::vector<ir::Stub>& stubs) {
  auto built = plan::build(stubs);
  EXPECT_TRUE(std::holds_alternative<std::shared_ptr<const plan::Tree>>(built));
  return std::get<std::shared_ptr<const plan::Tree>>(built);
}

int interpret(const std::vector<ir::Stub>& stubs, const Request& r) {
  Interpreter interpreter(plan_of(stubs));
  RequestContext context(r);
  return interpreter.match(context);
}

// The reference: every predicate of every stub, in order.
int scan(const std::vector<ir::Stub>& stubs, const Request& r) {
  RequestContext context(r);
  for (size_t i = 0; i < stubs.size(); ++i) {
    bool all = true;
    for (const auto& predicate : stubs[i].predicates) {
      auto prepared = PreparedPredicate::prepare(predicate);
      if (!std::get<PreparedPredicate>(prepared).evaluate(context)) {
        all = false;
        break;
      }
    }
    if (all) return static_cast<int>(i);
  }
  return kNoMatch;
}

TEST(Planner, DispatchesOnMethodAndPathWithoutResiduals) {
  std::vector<ir::Stub> stubs;
  for (int i = 0; i < 300; ++i) {
    stubs.push_back(stub({equals({{"method", "GET"}, {"path", "/r/" + std::to_string(i)}})}));
  }
  auto tree = plan_of(stubs);
  EXPECT_TRUE(tree->predicates.empty());  // method+path equals are decided by dispatch alone
  EXPECT_EQ(interpret(stubs, request("GET", "/r/299")), 299);
  EXPECT_EQ(interpret(stubs, request("GET", "/R/7")), 7);  // case-insensitive by default
  EXPECT_EQ(interpret(stubs, request("PUT", "/r/7")), kNoMatch);
  EXPECT_EQ(interpret(stubs, request("GET", "/nope")), kNoMatch);
}

TEST(Planner, KeepsFirstMatchOrderAcrossWildcards) {
  std::vector<ir::Stub> stubs = {
      stub({equals({{"path", "/a"}}), equals({{"query", {{"x", "1"}}}})}),  // 0: path + residual
      stub({equals({{"method", "POST"}})}),                                 // 1: method only
      stub({}),                                                             // 2: matches all
      stub({equals({{"method", "GET"}, {"path", "/a"}})}),                  // 3: shadowed by 2
  };
  EXPECT_EQ(interpret(stubs, request("GET", "/a", {{"x", "1"}})), 0);
  EXPECT_EQ(interpret(stubs, request("POST", "/a")), 1);
  EXPECT_EQ(interpret(stubs, request("GET", "/a")), 2);
  EXPECT_EQ(interpret(stubs, request("DELETE", "/zzz")), 2);
}

TEST(Planner, CaseSensitiveAndMixedPredicatesStayResidual) {
  std::vector<ir::Stub> stubs = {
      stub({equals({{"path", "/Exact"}}, /*case_sensitive=*/true)}),
      stub({equals({{"path", "/exact"}, {"query", {{"q", "1"}}}})}),
  };
  auto tree = plan_of(stubs);
  EXPECT_EQ(tree->predicates.size(), 2u);
  // Both are filed under the folded path: a folded match is necessary for an exact one.
  EXPECT_EQ(tree->stub_keys[0].path, "/exact");
  EXPECT_EQ(tree->stub_keys[1].path, "/exact");
  EXPECT_EQ(interpret(stubs, request("GET", "/exact")), kNoMatch);
  EXPECT_EQ(interpret(stubs, request("GET", "/Exact")), 0);
  EXPECT_EQ(interpret(stubs, request("GET", "/EXACT", {{"q", "1"}})), 1);
}

TEST(Planner, ConflictingMethodsInOneStubNeverMatch) {
  std::vector<ir::Stub> stubs = {
      stub({equals({{"method", "GET"}}), equals({{"method", "POST"}})}),
  };
  EXPECT_EQ(interpret(stubs, request("GET", "/")), kNoMatch);
  EXPECT_EQ(interpret(stubs, request("POST", "/")), kNoMatch);
}

TEST(Planner, PrefixesFromStartsWithAndMatches) {
  std::vector<ir::Stub> stubs = {
      stub_of(R"([{"startsWith": {"path": "/API/"}}])"),                         // 0: decided
      stub_of(R"([{"startsWith": {"path": "/api/"}, "caseSensitive": true}])"),  // 1: checked
      stub_of(R"([{"matches": {"path": "^\\/api\\/v1\\/\\d+"}}])"),              // 2: /api/v1/
      stub_of(R"([{"matches": {"path": "^/a$"}}])"),                             // 3: exact /a
      stub_of(R"([{"matches": {"path": "^/users?"}}])"),                         // 4: /user
      stub_of(R"([{"matches": {"path": "^/a|^/b"}}])"),                          // 5: not at all
      // 6: the exact path wins, and decides the startsWith it implies.
      stub_of(R"([{"startsWith": {"path": "/x"}}, {"equals": {"path": "/x/y"}}])"),
      // 7: the longest prefix wins; the shorter startsWith is implied by it.
      stub_of(R"([{"startsWith": {"path": "/p"}}, {"matches": {"path": "^/p/q/"}}])"),
  };
  auto tree = plan_of(stubs);
  EXPECT_EQ(tree->stub_keys[0].prefix, "/api/");
  EXPECT_EQ(tree->stub_keys[1].prefix, "/api/");
  EXPECT_EQ(tree->stub_keys[2].prefix, "/api/v1/");
  EXPECT_EQ(tree->stub_keys[3].path, "/a");
  EXPECT_EQ(tree->stub_keys[4].prefix, "/user");
  EXPECT_FALSE(tree->stub_keys[5].prefix || tree->stub_keys[5].path);
  EXPECT_EQ(tree->stub_keys[6].path, "/x/y");
  EXPECT_FALSE(tree->stub_keys[6].prefix);
  EXPECT_EQ(tree->stub_keys[7].prefix, "/p/q/");
  const auto& prefixes = tree->any_method.by_prefix;
  EXPECT_EQ(prefixes.find("/api/")->second.rest.candidates[0].residual.size(), 0u);
  EXPECT_EQ(prefixes.find("/api/")->second.rest.candidates[1].residual.size(), 1u);
  EXPECT_EQ(tree->any_method.by_path.find("/x/y")->second.rest.candidates[0].residual.size(), 0u);
  EXPECT_EQ(prefixes.find("/p/q/")->second.rest.candidates[0].residual.size(), 1u);  // the regex
  EXPECT_EQ(tree->any_method.prefix_lengths, (std::vector<size_t>{5, 8}));

  EXPECT_EQ(interpret(stubs, request("GET", "/Api/v2")), 0);
  EXPECT_EQ(interpret(stubs, request("GET", "/api")), 5);  // "^/a|^/b" is still a check
  EXPECT_EQ(interpret(stubs, request("GET", "/A")), 3);
  EXPECT_EQ(interpret(stubs, request("GET", "/users/1")), 4);
  EXPECT_EQ(interpret(stubs, request("GET", "/user")), 4);
  EXPECT_EQ(interpret(stubs, request("GET", "/X/Y")), 6);
  EXPECT_EQ(interpret(stubs, request("GET", "/p/Q/r")), 7);
  EXPECT_EQ(interpret(stubs, request("GET", "/p/x")), kNoMatch);
}

TEST(Planner, PathLiteralsFromContainsEndsWithAndUnanchoredRegexes) {
  std::vector<ir::Stub> stubs = {
      stub_of(R"([{"matches": {"path": "/regex/pattern1/[a-z]+"}}])"),   // 0
      stub_of(R"([{"matches": {"path": "/regex/pattern10/[a-z]+"}}])"),  // 1
      stub_of(R"([{"contains": {"path": "/Orders/"}}])"),                // 2
      stub_of(R"([{"endsWith": {"path": ".json"}}])"),                   // 3
      stub_of(R"([{"matches": {"path": "\\d+|x"}}])"),                   // 4: alternation
      stub_of(R"([{"startsWith": {"path": "/p"}}, {"contains": {"path": "q"}}])"),  // 5: prefix
  };
  auto tree = plan_of(stubs);
  EXPECT_EQ(tree->stub_keys[0].substring, "/regex/pattern1/");
  EXPECT_EQ(tree->stub_keys[1].substring, "/regex/pattern10/");
  EXPECT_EQ(tree->stub_keys[2].substring, "/orders/");
  EXPECT_EQ(tree->stub_keys[3].substring, ".json");
  EXPECT_FALSE(tree->stub_keys[4].substring);
  EXPECT_FALSE(tree->stub_keys[5].substring);
  EXPECT_EQ(tree->stub_keys[5].prefix, "/p");
  EXPECT_EQ(tree->any_method.by_substring.literals.size(), 4u);

  // Every substring stays a residual check: the literal is necessary, not sufficient.
  for (const auto& request_path : {"/regex/pattern10/abc", "/x/regex/pattern1/z", "/a/ORDERS/b",
                                   "/a/orders/b.json", "/regex/pattern1/9", "/p/q", "/nope"}) {
    EXPECT_EQ(interpret(stubs, request("GET", request_path)),
              scan(stubs, request("GET", request_path)))
        << request_path;
  }
  EXPECT_EQ(interpret(stubs, request("GET", "/regex/pattern10/abc")), 1);
  EXPECT_EQ(interpret(stubs, request("GET", "/a/ORDERS/b.json")), 2);
}

TEST(Planner, ValueIndexesRouteInsideACell) {
  std::vector<ir::Stub> stubs;
  for (int i = 0; i < 100; ++i) {
    const std::string id = std::to_string(i);
    const std::string header =
        R"([{"equals": {"path": "/route", "headers": {"X-Route": "r)" + id + R"("}}}])";
    stubs.push_back(stub_of(header.c_str()));
  }
  stubs.push_back(stub_of(R"([{"equals": {"path": "/route"}}])"));  // 100: the fallback
  stubs.push_back(stub_of(R"([{"deepEquals": {"query": {"page": "2", "size": "10"}}}])"));
  auto tree = plan_of(stubs);
  const plan::Cell& cell = tree->any_method.by_path.find("/route")->second;
  ASSERT_EQ(cell.indexes.size(), 1u);
  EXPECT_EQ(cell.indexes[0].field, plan::Field::kHeader);
  EXPECT_EQ(cell.indexes[0].key, "x-route");
  EXPECT_EQ(cell.indexes[0].by_value.size(), 100u);
  EXPECT_EQ(cell.indexes[0].first_stub, 0);
  EXPECT_EQ(cell.rest.candidates.size(), 1u);
  EXPECT_EQ(tree->stub_keys[101].value->key, "page");

  EXPECT_EQ(interpret(stubs, request("GET", "/route", {}, {{"x-route", "R57"}})), 57);
  EXPECT_EQ(interpret(stubs, request("GET", "/route", {}, {{"X-Route", "zzz"}})), 100);
  // A repeated header: either value may be the one a stub wants.
  EXPECT_EQ(interpret(stubs, request("GET", "/route", {}, {{"X-Route", "r9"}, {"X-Route", "r3"}})),
            3);
  EXPECT_EQ(interpret(stubs, request("GET", "/q", {{"size", "10"}, {"page", "2"}})), 101);
  EXPECT_EQ(interpret(stubs, request("GET", "/q", {{"size", "10"}, {"page", "2"}, {"x", "1"}})),
            kNoMatch);
}

TEST(Planner, BodyFieldsRouteThroughSelectors) {
  std::vector<ir::Stub> stubs = {
      stub_of(R"([{"equals": {"method": "POST", "path": "/j"}},
                  {"equals": {"body": "7"}, "jsonpath": {"selector": "$.User.Id"}}])"),
      stub_of(R"([{"equals": {"method": "POST", "path": "/j", "body": {"id": 7, "type": "a"}}}])"),
      stub_of(R"([{"equals": {"method": "POST", "path": "/j", "body": {"id": "8"}}}])"),
      stub_of(R"([{"equals": {"method": "POST", "path": "/j"}}])"),
      stub_of(R"([{"equals": {"method": "POST", "path": "/j"}},
                  {"equals": {"body": "9"}, "jsonpath": {"selector": "$.user.id"}}])"),
  };
  auto tree = plan_of(stubs);
  EXPECT_EQ(tree->stub_keys[0].value->key, "$.user.id");
  EXPECT_EQ(tree->stub_keys[1].value->key, "$.id");
  EXPECT_EQ(tree->stub_keys[1].value->value, "7");
  EXPECT_EQ(tree->by_method.find("POST")->second.by_path.find("/j")->second.indexes.size(), 2u);

  auto post = [&](std::string body) {
    return interpret(stubs, request("POST", "/j", {}, {}, body));
  };
  EXPECT_EQ(post(R"({"user": {"id": 7}})"), 0);
  EXPECT_EQ(post(R"({"USER": {"ID": "7"}})"), 0);
  EXPECT_EQ(post(R"({"user": {"id": [1, 7]}})"), 0);
  EXPECT_EQ(post(R"({"id": 7.0, "type": "A"})"), 1);
  EXPECT_EQ(post(R"([{"x": 1}, {"id": 7, "type": "a"}])"), 1);  // any element of an array
  EXPECT_EQ(post(R"(["{\"id\": 7, \"type\": \"a\"}"])"), 1);    // parsed from a string
  EXPECT_EQ(post(R"({"id": [8, 9]})"), 2);
  EXPECT_EQ(post(R"({"id": 7})"), 3);
  EXPECT_EQ(post("not json"), 3);
}

TEST(Planner, FactsInsideAndAreNecessaryNotDecisive) {
  std::vector<ir::Stub> stubs = {
      stub_of(R"([{"and": [{"equals": {"method": "POST"}}, {"startsWith": {"path": "/c/1/"}},
                           {"contains": {"headers": {"X-Type": "json"}}}]}])"),
      stub_of(R"([{"and": [{"inject": "function () { return true; }"},
                           {"equals": {"method": "POST"}}]}])"),
  };
  auto tree = plan_of(stubs);
  EXPECT_EQ(tree->stub_keys[0].method, "POST");
  EXPECT_EQ(tree->stub_keys[0].prefix, "/c/1/");
  EXPECT_FALSE(tree->stub_keys[1].method);  // nothing after a predicate that may throw
  EXPECT_EQ(tree->predicates.size(), 2u);
  EXPECT_EQ(interpret({stubs[0]}, request("POST", "/c/1/x", {}, {{"x-type", "a json"}})), 0);
  EXPECT_EQ(interpret({stubs[0]}, request("POST", "/c/1/x")), kNoMatch);
}

TEST(Planner, NoFactsFromExceptSelectorsOrCaseSensitiveBodies) {
  std::vector<ir::Stub> stubs = {
      stub_of(R"([{"equals": {"path": "/a1"}, "except": "1"}])"),
      stub_of(R"([{"equals": {"body": "7"}, "jsonpath": {"selector": "$.id"},
                   "caseSensitive": true}])"),
      stub_of(R"([{"deepEquals": {"body": {"id": 7}}}])"),
      stub_of(R"([{"equals": {"query": {"q": "1", "Q": "2"}}}])"),
      stub_of(R"([{"equals": {"query": {"q": ""}}}])"),
      stub_of(R"([{"equals": {"path": "/\u00e9"}}])"),
      stub_of(R"([{"startsWith": {"path": ""}}])"),
      stub_of(R"([{"equals": {"body": {"length": 2, "0": "a"}}}])"),
  };
  auto tree = plan_of(stubs);
  for (const auto& keys : tree->stub_keys) {
    EXPECT_FALSE(keys.method || keys.path || keys.prefix || keys.value);
  }
}

// An index would route one stub only: its lookup would cost more than the stub's own check, so
// the stub stays in the cell's rest leaf (filing under a value is optional, never required).
// Header and query value indexes keep Mountebank's comparison rules: values fold unless the
// predicate is caseSensitive, names always fold for the index, and a stub the index cannot file
// (here: `except`, which rewrites the value) keeps its place between indexed ones.
TEST(Planner, ValueIndexesKeepCaseRulesAndStubOrder) {
  std::vector<ir::Stub> stubs = {
      stub_of(R"([{"equals": {"path": "/r", "headers": {"X-Id": "one"}}}])"),
      stub_of(R"([{"equals": {"path": "/r", "headers": {"X-Id": "Two"}}, "caseSensitive": true}])"),
      stub_of(R"([{"equals": {"path": "/r", "headers": {"X-Id": "three"}}, "except": "-x"}])"),
      stub_of(R"([{"equals": {"path": "/r", "headers": {"X-Id": "three"}}}])"),
      stub_of(R"([{"equals": {"path": "/r", "headers": {"x-id": "two"}}}])"),
      stub_of(R"([{"equals": {"path": "/r", "query": {"page": "1"}}}])"),
      stub_of(R"([{"equals": {"path": "/r", "query": {"Page": "1"}}}])"),
  };
  auto tree = plan_of(stubs);
  const plan::Cell& cell = tree->any_method.by_path.find("/r")->second;
  ASSERT_EQ(cell.indexes.size(), 2u);
  EXPECT_EQ(cell.indexes[0].key, "x-id");
  // `except` gives no facts at all: stub 2 waits in the any-path leaf, merged by stub order.
  EXPECT_FALSE(tree->stub_keys[2].value);
  EXPECT_FALSE(tree->stub_keys[2].path);
  EXPECT_EQ(tree->any_method.any_path.rest.candidates.size(), 1u);
  EXPECT_EQ(tree->stub_keys[1].value->value, "two");  // folded, the check stays residual

  auto both = [&](const Request& r) {
    const int indexed = interpret(stubs, r);
    EXPECT_EQ(indexed, scan(stubs, r)) << r.path;
    return indexed;
  };
  // Values fold by default, and header names always do.
  EXPECT_EQ(both(request("GET", "/r", {}, {{"x-ID", "ONE"}})), 0);
  // caseSensitive: only the exact spelling matches stub 1; any other falls through to stub 4.
  EXPECT_EQ(both(request("GET", "/r", {}, {{"X-Id", "Two"}})), 1);
  EXPECT_EQ(both(request("GET", "/r", {}, {{"X-Id", "TWO"}})), 4);
  // The `except` stub sits before stub 3 and wins when its rewritten value matches.
  EXPECT_EQ(both(request("GET", "/r", {}, {{"X-Id", "three-x"}})), 2);
  EXPECT_EQ(both(request("GET", "/r", {}, {{"X-Id", "Three"}})), 2);
  // A repeated header offers each value; the first stub any of them reaches wins.
  EXPECT_EQ(both(request("GET", "/r", {}, {{"X-Id", "three"}, {"X-Id", "one"}})), 0);
  // Query keys fold too: the first of two stubs whose names fold alike wins every spelling.
  EXPECT_EQ(both(request("GET", "/r", {{"PAGE", "1"}})), 5);
  EXPECT_EQ(both(request("GET", "/r", {{"page", "1"}})), 5);
  EXPECT_EQ(both(request("GET", "/r", {{"Page", "1"}})), 5);
  EXPECT_EQ(both(request("GET", "/q", {{"page", "1"}})), kNoMatch);
}

TEST(Planner, ALoneValueStaysInTheRestLeaf) {
  std::vector<ir::Stub> stubs = {
      stub_of(R"([{"equals": {"path": "/a", "query": {"q": "1"}}}])"),
      stub_of(R"([{"equals": {"path": "/b", "query": {"q": "1"}}}])"),
      stub_of(R"([{"equals": {"path": "/b", "query": {"q": "2"}}}])"),
  };
  auto tree = plan_of(stubs);
  const plan::Cell& a = tree->any_method.by_path.find("/a")->second;
  EXPECT_TRUE(a.indexes.empty());
  EXPECT_EQ(a.rest.candidates.size(), 1u);
  EXPECT_FALSE(tree->stub_keys[0].value);
  EXPECT_EQ(tree->any_method.by_path.find("/b")->second.indexes.size(), 1u);
  EXPECT_EQ(tree->stub_keys[2].value->value, "2");
  EXPECT_EQ(interpret(stubs, request("GET", "/a", {{"q", "1"}})), 0);
  EXPECT_EQ(interpret(stubs, request("GET", "/a", {{"q", "2"}})), kNoMatch);
  EXPECT_EQ(interpret(stubs, request("GET", "/b", {{"q", "2"}})), 2);
}

// Only the method and path tables are consulted before the merge reaches a value index: a stub
// answered earlier costs no request-value lookup.
TEST(Planner, ValueIndexesAreLookedUpOnlyWhenReached) {
  std::vector<ir::Stub> stubs = {
      stub_of(R"([{"equals": {"path": "/a"}}])"),
      stub_of(R"([{"equals": {"query": {"q": "1"}}}])"),
      stub_of(R"([{"equals": {"query": {"q": "2"}}}])"),
  };
  Interpreter interpreter(plan_of(stubs));
  Request early = request("GET", "/a", {{"q", "1"}});
  RequestContext context(early);
  EXPECT_EQ(interpreter.match(context), 0);
  EXPECT_EQ(context.caches().values.filled(), 0u);
  Request late = request("GET", "/b", {{"q", "1"}});
  RequestContext late_context(late);
  EXPECT_EQ(interpreter.match(late_context), 1);
  EXPECT_EQ(late_context.caches().values.filled(), 1u);
}

// Request paths from the server are ASCII; any other path is looked up by its JavaScript lower
// case, as the evaluator compares it.
TEST(Planner, NonAsciiRequestPathFoldsLikeTheEvaluator) {
  std::vector<ir::Stub> stubs = {
      stub_of(R"([{"equals": {"path": "/id"}}])"),
      stub_of(R"([{"startsWith": {"path": "/ix"}}])"),
  };
  EXPECT_EQ(interpret(stubs, request("GET", "/\u0130d")), scan(stubs, request("GET", "/\u0130d")));
  EXPECT_EQ(interpret(stubs, request("GET", "/\u0130d")), 0);
  EXPECT_EQ(interpret(stubs, request("GET", "/\u0130x/\u00c9")), 1);
}

// Randomized: stub lists drawn from a small vocabulary so that they overlap a lot.
TEST(Planner, AgreesWithFirstMatchScanOnRandomStubLists) {
  std::mt19937 random(20261202);
  const std::vector<std::string> methods = {"GET", "POST", "put"};
  const std::vector<std::string> paths = {"/a", "/b", "/A", "/c/d"};
  auto pick = [&](const auto& options) { return options[random() % options.size()]; };

  for (int round = 0; round < 300; ++round) {
    std::vector<ir::Stub> stubs;
    const int count = 1 + static_cast<int>(random() % 12);
    for (int i = 0; i < count; ++i) {
      std::vector<ir::Predicate> predicates;
      const int kind = static_cast<int>(random() % 6);
      if (kind == 0) predicates.push_back(equals({{"method", pick(methods)}}));
      if (kind == 1) predicates.push_back(equals({{"path", pick(paths)}}));
      if (kind == 2)
        predicates.push_back(equals({{"method", pick(methods)}, {"path", pick(paths)}}));
      if (kind == 3) predicates.push_back(equals({{"path", pick(paths)}}, true));
      if (kind == 4) {
        predicates.push_back(equals({{"path", pick(paths)}}));
        predicates.push_back(equals({{"query", {{"k", "v"}}}}));
      }
      stubs.push_back(stub(std::move(predicates)));
    }
    for (const auto& method : {"GET", "POST", "PUT", "DELETE"}) {
      for (const auto& path : paths) {
        for (bool with_query : {false, true}) {
          Request r = request(method, path);
          if (with_query) r.query = {{"k", "v"}};
          ASSERT_EQ(interpret(stubs, r), scan(stubs, r))
              << "round " << round << " " << method << " " << path;
        }
      }
    }
  }
}

}  // namespace
}  // namespace rift
