// The planner must never change which stub wins: the interpreter walking the tree is checked
// against a plain first-match scan over the same prepared predicates.
#include <gtest/gtest.h>

#include <random>

#include "compiler/interpreter.h"
#include "compiler/plan.h"

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

Request request(std::string method, std::string path, KeyValues query = {}) {
  Request out;
  out.method = std::move(method);
  out.path = std::move(path);
  out.query = std::move(query);
  return out;
}

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
