// Spaces in the tree (docs/spaces.md): a stub of a space is filed in its scope, a request walks
// the global scope and its flow id's, and every reader of the tree (render, explain) names them.
#include <gtest/gtest.h>

#include "compiler/explain.h"
#include "compiler/interpreter.h"
#include "compiler/plan.h"
#include "compiler/plan_render.h"
#include "predicate_test_util.h"

namespace rift {
namespace {

ir::Stub stub(const char* predicate, std::optional<std::string> space = std::nullopt) {
  ir::Stub out;
  out.predicates.push_back(testing::predicate_from(ir::Json::parse(predicate)));
  out.responses.push_back(ir::Response{});
  out.space = std::move(space);
  return out;
}

// 0: space a, GET /x; 1: space A, GET /x; 2: global /x; 3: space a, POST /y.
std::vector<ir::Stub> stubs() {
  return {stub(R"({"equals": {"method": "GET", "path": "/x"}})", "a"),
          stub(R"({"equals": {"method": "GET", "path": "/x"}})", "A"),
          stub(R"({"equals": {"path": "/x"}})"),
          stub(R"({"equals": {"method": "POST", "path": "/y"}})", "a")};
}

std::shared_ptr<const plan::Tree> tree_of(const std::vector<ir::Stub>& list) {
  auto built = plan::build(list);
  EXPECT_EQ(built.index(), 0u);
  return std::get<0>(built);
}

Request from(std::string flow_id, std::string method, std::string path) {
  Request out = testing::request(std::move(method), std::move(path));
  out.flow_id = std::move(flow_id);
  return out;
}

int match(const plan::Tree& tree, const Request& request) {
  Interpreter interpreter(std::shared_ptr<const plan::Tree>(&tree, [](const plan::Tree*) {}));
  RequestContext context(request);
  return interpreter.match(context);
}

TEST(Spaces, EachSpaceIsAScopeOfTheTree) {
  const auto list = stubs();
  const auto tree = tree_of(list);
  EXPECT_EQ(tree->by_space.size(), 2u);
  EXPECT_TRUE(tree->by_space.contains("a"));
  EXPECT_TRUE(tree->by_space.contains("A"));
  EXPECT_EQ(tree->stub_keys[0].space, "a");
  EXPECT_FALSE(tree->stub_keys[2].space);
  // The global scope holds the global stub only.
  EXPECT_TRUE(tree->by_method.empty());
  EXPECT_EQ(tree->any_method.by_path.size(), 1u);
}

TEST(Spaces, ARequestSeesTheGlobalStubsAndItsSpacesInOneOrder) {
  const auto list = stubs();
  const auto tree = tree_of(list);
  EXPECT_EQ(match(*tree, from("a", "GET", "/x")), 0);
  EXPECT_EQ(match(*tree, from("A", "GET", "/x")), 1);  // byte for byte
  EXPECT_EQ(match(*tree, from("b", "GET", "/x")), 2);
  EXPECT_EQ(match(*tree, from("", "GET", "/x")), 2);
  EXPECT_EQ(match(*tree, from("a", "POST", "/y")), 3);
  EXPECT_EQ(match(*tree, from("A", "POST", "/y")), kNoMatch);
  // A global stub before a space's wins.
  const std::vector<ir::Stub> global_first = {stub(R"({"equals": {"path": "/x"}})"),
                                              stub(R"({"equals": {"path": "/x"}})", "a")};
  EXPECT_EQ(match(*tree_of(global_first), from("a", "GET", "/x")), 0);
}

TEST(Spaces, RenderAndExplainNameTheSpace) {
  const auto list = stubs();
  const auto tree = tree_of(list);
  const ir::Json json = plan_to_json(*tree, list, {});
  ASSERT_TRUE(json["tree"].contains("spaces"));
  EXPECT_TRUE(json["tree"]["spaces"]["a"]["methods"].contains("GET"));
  EXPECT_TRUE(json["tree"]["spaces"]["a"]["methods"].contains("POST"));
  EXPECT_EQ(json["tree"]["spaces"]["A"]["methods"]["GET"]["paths"]["/x"]["candidates"][0]["stub"],
            1);
  const std::string text = plan_to_text(*tree, list, {});
  EXPECT_NE(text.find("space a: GET"), std::string::npos) << text;
  // A request reaches the global scope and one space: at most two candidates here.
  EXPECT_EQ(candidate_stats(*tree).worst_case, 2u);

  const ir::Json report = explain(*tree, list, from("a", "GET", "/x"));
  EXPECT_EQ(report["matched"], 0);
  EXPECT_EQ(report["path"][0]["step"], "space");
  EXPECT_EQ(report["path"][0]["result"], "hit");
  // Near misses leave out other spaces' stubs.
  const ir::Json miss = explain(*tree, list, from("b", "PUT", "/y"));
  for (const auto& near : miss["nearMisses"]) EXPECT_EQ(near["stub"], 2) << miss.dump();
}

TEST(Spaces, ATreeWithoutSpacesRendersAsBefore) {
  const std::vector<ir::Stub> list = {stub(R"({"equals": {"path": "/x"}})")};
  const auto tree = tree_of(list);
  EXPECT_FALSE(plan_to_json(*tree, list, {})["tree"].contains("spaces"));
  EXPECT_NE(explain(*tree, list, from("a", "GET", "/x"))["path"][0]["step"], "space");
}

}  // namespace
}  // namespace rift
