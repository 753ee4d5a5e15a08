// jsonpath::kMaxSelectionWork: no selector and body together make one selection unbounded.
#include <gtest/gtest.h>

#include <string>

#include "compiler/json_stream.h"
#include "compiler/jsonpath.h"
#include "predicate_test_util.h"

namespace rift::jsonpath {
namespace {

Path path(const std::string& selector) {
  auto parsed = Path::parse(selector);
  EXPECT_EQ(parsed.index(), 0u) << selector;
  return std::get<Path>(std::move(parsed));
}

// {"a":{"a":...{"a":1}...}}, `levels` objects deep.
ir::Json chain(int levels) {
  ir::Json node = 1;
  for (int i = 0; i < levels; ++i) node = ir::Json{{"a", std::move(node)}};
  return node;
}

// [[...[bottom]...]], `levels` arrays around `bottom`.
ir::Json arrays_around(ir::Json bottom, int levels) {
  for (int i = 0; i < levels; ++i) bottom = ir::Json::array({std::move(bottom)});
  return bottom;
}

TEST(JsonPathWork, RecursiveDescentsOfRecursiveDescentsStopAtTheLimit) {
  // The fuzz finding: 200 levels and three `..` select about 1.3 million subtrees.
  const ir::Json document = chain(200);
  EXPECT_FALSE(path("$..a..a..a").try_select(document));
  EXPECT_TRUE(path("$..a..a..a").select(document).empty());
  // One descent of the same body is within the limit and complete.
  const auto once = path("$..a").try_select(document);
  ASSERT_TRUE(once);
  EXPECT_EQ(once->size(), 200u);
}

TEST(JsonPathWork, CopyingResultsCountsTheirSize) {
  // A few results, each holding a big array: 64 copies of 200,000 values.
  ir::Json wide = ir::Json::array();
  for (int i = 0; i < 200000; ++i) wide.push_back(i);
  const ir::Json document = arrays_around(std::move(wide), 64);
  EXPECT_FALSE(path("$..*").try_select(document));
  // The same shape a tenth as wide fits.
  ir::Json narrow = ir::Json::array();
  for (int i = 0; i < 20000; ++i) narrow.push_back(i);
  const auto fits = path("$..*").try_select(arrays_around(std::move(narrow), 64));
  ASSERT_TRUE(fits);
  EXPECT_EQ(fits->size(), 64u + 20000u);
}

TEST(JsonPathWork, LongTextsCountTheirBytes) {
  const ir::Json document = arrays_around(ir::Json(std::string(4 << 20, 'x')), 64);
  EXPECT_FALSE(path("$..*").try_select(document));
  EXPECT_TRUE(path("$..*").try_select(arrays_around(ir::Json(std::string(1 << 16, 'x')), 64)));
}

TEST(JsonPathWork, FiltersPrintingArraysAreCharged) {
  // `@ == 'x'` prints every array it compares: each level prints the whole array below it.
  ir::Json wide = ir::Json::array();
  for (int i = 0; i < 100000; ++i) wide.push_back(i);
  const ir::Json document = arrays_around(std::move(wide), 200);
  EXPECT_FALSE(path("$..[?(@ == 'x')]").try_select(document));
  EXPECT_FALSE(path("$..[?(@ < 'x')]").try_select(document));
  // Referring to a subtree costs nothing: `@` is not copied for truthiness.
  const auto truthy = path("$..[?(@)]").try_select(arrays_around(ir::Json::array({1}), 200));
  ASSERT_TRUE(truthy);
  EXPECT_EQ(truthy->size(), 201u);
}

TEST(JsonPathWork, LeadingNamesFollowedOnTheTapeCostTheSame) {
  // The streaming read and the tree read hit the limit on the same bodies.
  for (const int levels : {20, 200}) {
    const std::string text = R"({"x":{"y":)" + chain(levels).dump() + "}}";
    const Path selector = path("$.x.y..a..a..a");
    const auto tree = jsonpath::parse_json(text);
    ASSERT_TRUE(tree);
    const auto walk = json_stream::walk(text, selector.leading_names(), {});
    ASSERT_EQ(walk.outcome, json_stream::Outcome::kRead);
    ASSERT_TRUE(walk.node);
    const auto whole = selector.try_select(*tree);
    const auto streamed = selector.select_from(*walk.node, walk.consumed);
    EXPECT_EQ(whole.has_value(), levels == 20) << levels;
    EXPECT_EQ(streamed, whole) << levels;
  }
}

TEST(JsonPathWork, ToAPredicateABodyPastTheLimitSelectsNothing) {
  const std::string deep = chain(200).dump();
  const std::string shallow = chain(20).dump();
  const char* exists = R"J({"exists":{"body":true},"jsonpath":{"selector":"$..a..a..a"}})J";
  EXPECT_FALSE(testing::body_holds(exists, deep));
  EXPECT_TRUE(testing::body_holds(exists, shallow));
  // Through the streaming read of the leading names too.
  const char* led = R"J({"exists":{"body":true},"jsonpath":{"selector":"$.a..a..a..a"}})J";
  EXPECT_FALSE(testing::body_holds(led, deep));
  EXPECT_TRUE(testing::body_holds(led, shallow));
}

}  // namespace
}  // namespace rift::jsonpath
