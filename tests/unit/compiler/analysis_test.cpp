// The analysis must report exactly what it can prove: the known shadowed and duplicate stubs of
// a hand-written config, none of the look-alikes, and (checked against the evaluator on random
// stub lists and requests) never a stub that some request could still reach.
#include "compiler/analysis.h"

#include <gtest/gtest.h>

#include <random>

#include "compiler/predicate_eval.h"
#include "predicate_test_util.h"

namespace rift {
namespace {

using analysis::Finding;

ir::Stub stub(const std::vector<std::string>& predicates) {
  ir::Stub out;
  for (const auto& text : predicates) {
    out.predicates.push_back(testing::predicate_from(ir::Json::parse(text)));
  }
  out.responses.push_back(ir::Response{});
  return out;
}

std::vector<Finding> analyze(const std::vector<ir::Stub>& stubs) {
  return analysis::analyze(stubs);
}

// "kind stub by" for compact expectations.
std::vector<std::string> summary(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (const auto& f : findings) {
    out.push_back(std::string(analysis::kind_name(f.kind)) + " " + std::to_string(f.stub) + " " +
                  std::to_string(f.by));
  }
  return out;
}

using Lines = std::vector<std::string>;

TEST(Analysis, TheTestConfigFindsEveryKnownCaseAndNothingElse) {
  const std::vector<ir::Stub> stubs = {
      // 0, 1: different methods on one path, neither shadows the other
      stub({R"({"equals": {"method": "GET", "path": "/users"}})"}),
      stub({R"({"equals": {"method": "POST", "path": "/users"}})"}),
      // 2: same method + path as 0 (case-folded), plus a query: shadowed by 0
      stub({R"({"equals": {"method": "get", "path": "/USERS", "query": {"page": "2"}}})"}),
      // 3: an earlier stub with an extra predicate does not shadow: 4 is fine
      stub({R"({"equals": {"path": "/orders", "query": {"a": "1"}}})"}),
      stub({R"({"equals": {"path": "/orders"}})"}),
      // 5: prefix; 6 is under it (case-insensitively) and shadowed; 7 is not under it
      stub({R"({"startsWith": {"path": "/api/"}})"}),
      stub({R"({"equals": {"path": "/API/v1/items", "method": "DELETE"}})"}),
      stub({R"({"equals": {"path": "/apx/v1"}})"}),
      // 8: case-sensitive earlier stub does not shadow the case-insensitive 9
      stub({R"({"equals": {"path": "/Case"}, "caseSensitive": true})"}),
      stub({R"({"equals": {"path": "/case"}})"}),
      // 10: exact duplicate of 3, fields written in another order
      stub({R"({"equals": {"query": {"a": "1"}, "path": "/orders"}})"}),
      // 11, 12: the same two predicates in both orders: duplicate
      stub({R"({"equals": {"path": "/dup"}})", R"({"exists": {"headers": {"X-Id": true}}})"}),
      stub({R"({"exists": {"headers": {"X-Id": true}}})", R"({"equals": {"path": "/dup"}})"}),
      // 13: a catch-all; everything after it is shadowed by it
      stub({}),
      stub({R"({"equals": {"path": "/late"}})"}),
      // 15: a duplicate that is also shadowed is reported once, as a duplicate
      stub({R"({"equals": {"path": "/dup"}})", R"({"exists": {"headers": {"X-Id": true}}})"}),
  };
  EXPECT_EQ(summary(analyze(stubs)),
            (Lines{"shadowed 2 0", "shadowed 6 5", "duplicate 10 3", "duplicate 12 11",
                   "shadowed 14 13", "duplicate 15 11"}));
}

TEST(Analysis, ReasonsNameBothStubs) {
  const auto findings = analyze(
      {stub({}), stub({R"({"equals": {"path": "/x"}})"}), stub({R"({"equals": {"path": "/x"}})"})});
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].reason,
            "stub 1 can never match: the earlier stub 0 has no predicates, so it answers every "
            "request first");
  EXPECT_EQ(findings[1].kind, Finding::Kind::kDuplicate);
  EXPECT_NE(findings[1].reason.find("stub 2 duplicates stub 1"), std::string::npos);
}

TEST(Analysis, NotReported) {
  const std::vector<std::vector<ir::Stub>> cases = {
      // caseSensitive earlier, folded later
      {stub({R"({"equals": {"path": "/X"}, "caseSensitive": true})"}),
       stub({R"({"equals": {"path": "/x"}})"})},
      // different values under caseSensitive
      {stub({R"({"equals": {"path": "/x"}, "caseSensitive": true})"}),
       stub({R"({"equals": {"path": "/X"}, "caseSensitive": true})"})},
      // except changes what equals compares
      {stub({R"({"equals": {"path": "/a"}, "except": "b"})"}),
       stub({R"({"equals": {"path": "/a"}})"})},
      // more query keys on the earlier stub
      {stub({R"({"equals": {"query": {"a": "1", "b": "2"}}})"}),
       stub({R"({"equals": {"query": {"a": "1"}}})"})},
      // prefix that does not cover the path
      {stub({R"({"startsWith": {"path": "/api/v2"}})"}),
       stub({R"({"equals": {"path": "/api/v1/x"}})"})},
      // exists on a header pinned to the empty string
      {stub({R"({"exists": {"headers": {"X": true}}})"}),
       stub({R"({"equals": {"headers": {"x": ""}}})"})},
      // a folded fact cannot tell a case-sensitive regex the request's case
      {stub({R"({"matches": {"path": "^/a"}, "caseSensitive": true})"}),
       stub({R"({"equals": {"path": "/abc"}})"})},
      // a query key under caseSensitive vs folded: "A=1&a=2" separates them
      {stub({R"({"equals": {"query": {"a": "1"}}})"}),
       stub({R"({"equals": {"query": {"A": "1"}}, "caseSensitive": true})"})},
      // deepEquals is not equals
      {stub({R"({"deepEquals": {"query": {"a": "1"}}})"}),
       stub({R"({"equals": {"query": {"a": "1"}}})"})},
      // jsonpath selects something else than the body
      {stub({R"({"equals": {"body": "x"}, "jsonpath": {"selector": "$.a"}})"}),
       stub({R"({"equals": {"body": "x"}})"})},
      // not, and an or with no covered branch
      {stub({R"({"not": {"equals": {"path": "/a"}}})"}), stub({R"({"equals": {"path": "/b"}})"})},
      {stub({R"({"or": [{"equals": {"path": "/a"}}, {"equals": {"method": "PUT"}}]})"}),
       stub({R"({"equals": {"path": "/b"}})"})},
      // a later stub with no predicates is not shadowed by a narrower one
      {stub({R"({"equals": {"path": "/a"}})"}), stub({})},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    EXPECT_TRUE(analyze(cases[i]).empty()) << "case " << i << ": " << summary(analyze(cases[i]))[0];
  }
}

TEST(Analysis, ProvenImplications) {
  const std::vector<std::vector<ir::Stub>> cases = {
      // folded earlier, exact later
      {stub({R"({"equals": {"path": "/x"}})"}),
       stub({R"({"equals": {"path": "/X"}, "caseSensitive": true})"})},
      // query keys: the earlier stub asks for a subset
      {stub({R"({"equals": {"query": {"a": "1"}}})"}),
       stub({R"({"equals": {"query": {"A": "1", "b": "2"}}})"})},
      // equals split over two predicates implies the combined one
      {stub({R"({"equals": {"method": "GET", "path": "/a"}})"}),
       stub({R"({"equals": {"path": "/a"}})", R"({"equals": {"method": "get"}})"})},
      // exists / contains / endsWith from a pinned value
      {stub({R"({"exists": {"headers": {"X-Id": true}}})"}),
       stub({R"({"equals": {"headers": {"x-id": "7"}}})"})},
      {stub({R"({"contains": {"path": "/V1/"}})", R"({"endsWith": {"path": "items"}})"}),
       stub({R"({"equals": {"path": "/api/v1/items"}})"})},
      // an or with one covered branch, an and flattened
      {stub({R"({"or": [{"equals": {"path": "/a"}}, {"equals": {"path": "/b"}}]})"}),
       stub({R"({"and": [{"equals": {"path": "/b"}}, {"equals": {"method": "GET"}}]})"})},
      // a regex against an exact value
      {stub({R"({"matches": {"path": "^/users/\\d+$"}})"}),
       stub({R"({"equals": {"path": "/users/42"}, "caseSensitive": true})"})},
      // identical opaque predicates (not, deepEquals, jsonpath) plus more
      {stub({R"({"not": {"equals": {"method": "GET"}}})"}),
       stub({R"({"not": {"equals": {"method": "GET"}}})", R"({"equals": {"path": "/z"}})"})},
      {stub({R"({"equals": {"body": "x"}, "jsonpath": {"selector": "$.a"}})"}),
       stub({R"({"equals": {"body": "x"}, "jsonpath": {"selector": "$.a"}})",
             R"({"equals": {"method": "POST"}})"})},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(summary(analyze(cases[i])), Lines{"shadowed 1 0"}) << "case " << i;
  }
}

TEST(Analysis, ReportsTheEarliestShadower) {
  const auto findings =
      analyze({stub({R"({"equals": {"path": "/b"}})"}), stub({R"({"equals": {"method": "GET"}})"}),
               stub({}), stub({R"({"equals": {"method": "GET", "path": "/a"}})"})});
  EXPECT_EQ(summary(findings), Lines{"shadowed 3 1"});
}

TEST(Analysis, TenThousandStubs) {
  std::vector<ir::Stub> stubs;
  for (int i = 0; i < 10000; ++i) {
    const std::string path = "/resource" + std::to_string(i % 9000);
    if (i % 3 == 0) {
      stubs.push_back(stub({R"({"equals": {"method": "GET", "path": ")" + path + R"("}})"}));
    } else {
      stubs.push_back(
          stub({R"({"equals": {"headers": {"X-Key": ")" + std::to_string(i) + R"("}}})"}));
    }
  }
  // Paths repeat from 9000 on: each GET duplicate of an earlier GET is found.
  size_t duplicates = 0;
  for (const auto& finding : analyze(stubs)) {
    EXPECT_EQ(finding.kind, Finding::Kind::kDuplicate);
    ++duplicates;
  }
  size_t expected = 0;
  for (int i = 9000; i < 10000; ++i) expected += (i % 3 == 0 && (i - 9000) % 3 == 0) ? 1 : 0;
  EXPECT_EQ(duplicates, expected);
}

// Soundness against the evaluator: random stub lists over a small vocabulary, random requests
// from the same vocabulary; whenever j is reported, no request may satisfy j but not its `by`.
TEST(Analysis, NeverReportsAReachableStub) {
  std::mt19937 rng(20240611);
  auto pick = [&](const std::vector<std::string>& from) {
    return from[std::uniform_int_distribution<size_t>(0, from.size() - 1)(rng)];
  };
  const std::vector<std::string> paths = {"/a", "/A", "/a/b", "/b", ""};
  const std::vector<std::string> methods = {"GET", "get", "POST"};
  const std::vector<std::string> values = {"1", "", "x", "X"};
  auto random_predicate = [&]() -> std::string {
    const std::string cs = rng() % 4 == 0 ? R"(, "caseSensitive": true)" : "";
    switch (rng() % 9) {
      case 0:
        return R"({"equals": {"path": ")" + pick(paths) + "\"}" + cs + "}";
      case 1:
        return R"({"equals": {"method": ")" + pick(methods) + "\"}" + cs + "}";
      case 2:
        return R"({"startsWith": {"path": ")" + pick(paths) + "\"}" + cs + "}";
      case 3:
        return R"({"equals": {"query": {"q": ")" + pick(values) + "\"}}" + cs + "}";
      case 4:
        return R"({"exists": {"query": {"Q": )" + std::string(rng() % 2 ? "true" : "false") + "}}" +
               cs + "}";
      case 5:
        return R"({"matches": {"path": "^/a"})" + cs + "}";
      case 6:
        return R"({"contains": {"path": ")" + pick(values) + "\"}" + cs + "}";
      case 7:
        return R"({"or": [{"equals": {"path": ")" + pick(paths) +
               R"("}}, {"equals": {"method": ")" + pick(methods) + "\"}}]}";
      default:
        return R"({"equals": {"path": ")" + pick(paths) + R"(", "method": ")" + pick(methods) +
               "\"}" + cs + "}";
    }
  };
  std::vector<Request> requests;
  for (const auto& path : paths) {
    for (const auto& method : {"GET", "POST"}) {
      for (const auto& q : values) {
        Request r;
        r.method = method;
        r.path = path.empty() ? "/" : path;
        r.query = {{"q", q}};
        requests.push_back(r);
        r.query = {{"Q", q}, {"q", "1"}};
        requests.push_back(r);
        r.query = {};
        requests.push_back(r);
      }
    }
  }
  size_t reported = 0;
  for (int round = 0; round < 300; ++round) {
    std::vector<ir::Stub> stubs;
    const int count = 2 + static_cast<int>(rng() % 5);
    for (int s = 0; s < count; ++s) {
      std::vector<std::string> predicates;
      const int n = static_cast<int>(rng() % 3);
      for (int p = 0; p < n; ++p) predicates.push_back(random_predicate());
      stubs.push_back(stub(predicates));
    }
    std::vector<std::vector<PreparedPredicate>> prepared(stubs.size());
    for (size_t s = 0; s < stubs.size(); ++s) {
      for (const auto& predicate : stubs[s].predicates) {
        prepared[s].push_back(std::get<PreparedPredicate>(PreparedPredicate::prepare(predicate)));
      }
    }
    auto holds = [&](size_t s, const Request& r) {
      RequestContext context(r);
      for (const auto& predicate : prepared[s]) {
        if (!predicate.evaluate(context)) return false;
      }
      return true;
    };
    for (const auto& finding : analyze(stubs)) {
      ++reported;
      for (const auto& r : requests) {
        if (holds(static_cast<size_t>(finding.stub), r)) {
          ASSERT_TRUE(holds(static_cast<size_t>(finding.by), r))
              << finding.reason << "\nrequest " << r.method << " " << r.path;
        }
      }
    }
  }
  EXPECT_GT(reported, 50u);  // the generator does produce findings to check
}

}  // namespace
}  // namespace rift
