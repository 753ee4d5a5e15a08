// Reading JSON bodies on the simdjson tape must give what the tree path gives (tryJSON, then
// jsonpath or member lookup), and must hand back what it cannot read exactly.
#include "compiler/json_stream.h"

#include <gtest/gtest.h>

#include "compiler/jsonpath.h"
#include "compiler/regex.h"
#include "predicate_test_util.h"

namespace rift::json_stream {
namespace {

predicates::Transform folding() {
  predicates::Transform transform;
  transform.lower_keys = true;
  transform.lower_values = true;
  return transform;
}

// The selector's results read through walk + select_from, and through the whole tree.
void expect_same(const std::string& selector, const std::string& text,
                 const predicates::Transform& transform = {}, bool forced = false) {
  auto parsed = jsonpath::Path::parse(selector);
  ASSERT_EQ(parsed.index(), 0u) << selector;
  const jsonpath::Path& path = std::get<jsonpath::Path>(parsed);
  ASSERT_FALSE(path.leading_names().empty()) << selector;
  jsonpath::JsonParser parser;
  const auto tree = predicates::try_json(text, transform, parser);
  std::vector<ir::Json> expected;
  if (tree && !tree->is_string()) {
    expected = path.select(forced ? predicates::force_strings(*tree) : *tree);
  }
  const Walk walk = json_stream::walk(text, path.leading_names(), transform);
  ASSERT_NE(walk.outcome, Outcome::kUnsupported) << selector << " on " << text;
  EXPECT_EQ(walk.outcome == Outcome::kNotJson, !tree) << text;
  std::vector<ir::Json> actual;
  if (walk.node && !walk.root_is_string) {
    actual =
        path.select_from(forced ? predicates::force_strings(*walk.node) : *walk.node, walk.consumed)
            .value_or(std::vector<ir::Json>());
  }
  EXPECT_EQ(actual, expected) << selector << " on " << text;
}

TEST(JsonStream, LeadingNames) {
  auto names = [](const std::string& selector) {
    return std::get<jsonpath::Path>(jsonpath::Path::parse(selector)).leading_names();
  };
  EXPECT_EQ(names("$.a.b[0]['c d']"), (std::vector<std::string>{"a", "b", "0", "c d"}));
  EXPECT_EQ(names("$.a[*].b"), (std::vector<std::string>{"a"}));
  EXPECT_EQ(names("$.a..b"), (std::vector<std::string>{"a"}));
  EXPECT_EQ(names("$.a[0,1]"), (std::vector<std::string>{"a"}));
  EXPECT_TRUE(names("$").empty());
  EXPECT_TRUE(names("$..a").empty());
  EXPECT_TRUE(names("$[?(@.a)]").empty());
}

TEST(JsonStream, WalkSelectsLikeTheTree) {
  const std::string doc =
      R"({"user":{"id":25,"name":"X","tags":["a","b"],"deep":{"n":null,"t":true}},)"
      R"("list":[{"k":1},{"k":2}],"s":"text","length":7})";
  for (const char* selector : {"$.user.id",
                               "$.user",
                               "$.user.name",
                               "$.user.tags",
                               "$.user.tags[1]",
                               "$.user.tags[2]",
                               "$.user.tags.length",
                               "$.user.name.length",
                               "$.user.id.length",
                               "$.list[1].k",
                               "$.list[*].k",
                               "$.list..k",
                               "$.missing.x",
                               "$.s.x",
                               "$.length",
                               "$.list[01]",
                               "$.user.deep.n",
                               "$.user.deep.t",
                               "$['user']['tags'][0]",
                               "$.list[-1:]"}) {
    expect_same(selector, doc);
  }
}

TEST(JsonStream, WalkDuplicatesNumbersAndFolding) {
  expect_same("$.a", R"({"a":1,"b":2,"a":3})");
  expect_same("$.a.b", R"({"a":{"b":1},"a":{"c":2}})");
  expect_same("$.n", R"({"n":12345678901234567})");
  expect_same("$.n", R"({"n":1.5e3})");
  // Folded keys collide: the last one wins, as transform_json keeps it.
  expect_same("$.name", R"({"Name":"A","NAME":"B"})", folding());
  expect_same("$.\xc3\xa9t\xc3\xa9", "{\"\xc3\x89T\xc3\x89\":\"Y\"}", folding());
  expect_same("$.a", R"({"a":"MiXeD"})", folding());
}

TEST(JsonStream, WalkOnOtherDocuments) {
  expect_same("$.a", R"("just a string")");
  expect_same("$.length", R"("abc")");
  expect_same("$.length", "[1,2,3]");
  expect_same("$[1]", "[1,2,3]");
  expect_same("$.a", "17");
  expect_same("$.a", R"({"a":1,"b":tru})");  // invalid after the selected value: not JSON
  expect_same("$.a", "{\"a\":1} x");
  expect_same("$.a", "not json");
  expect_same("$.a", "");
}

TEST(JsonStream, HandsBackWhatSimdjsonCannotRead) {
  const Walk big = walk(R"({"a":123456789012345678901234567890})", {"a"}, {});
  EXPECT_EQ(big.outcome, Outcome::kUnsupported);
  // Nesting past compiler/nesting.h's bound is no JSON at all, on every path (nesting_test.cpp).
  const Members deep = members(std::string(2000, '[') + std::string(2000, ']'), {"a"}, {});
  EXPECT_EQ(deep.outcome, Outcome::kNotJson);
  // Arrays and scalars have their own rules in the evaluator.
  EXPECT_EQ(members("[1]", {"a"}, {}).outcome, Outcome::kUnsupported);
  EXPECT_EQ(members("\"s\"", {"a"}, {}).outcome, Outcome::kUnsupported);
  EXPECT_EQ(members("{", {"a"}, {}).outcome, Outcome::kNotJson);
}

TEST(JsonStream, MembersReadOnlyWhatIsNamed) {
  const Members read =
      members(R"({"a":{"x":"V"},"b":[1,2],"a":{"y":"W"},"C":3})", {"a", "c", "missing"}, folding());
  ASSERT_EQ(read.outcome, Outcome::kRead);
  ASSERT_EQ(read.values.size(), 3u);
  EXPECT_EQ(read.values[0], ir::Json::parse(R"({"y":"w"})"));
  EXPECT_EQ(read.values[1], ir::Json(3.0));
  EXPECT_FALSE(read.values[2]);
}

predicates::Transform stripping_digits() {
  predicates::Transform transform = folding();
  transform.except = std::make_shared<const Regex>(std::get<Regex>(Regex::compile("\\d", true)));
  return transform;
}

// deepEquals' canonical form from the tape and from the tree.
void expect_same_canonical(const std::string& text, const predicates::Transform& transform) {
  jsonpath::JsonParser parser;
  const auto tree = predicates::try_json(text, transform, parser);
  ASSERT_TRUE(tree) << text;
  const ir::Json normalized =
      predicates::transform_json(predicates::force_strings(*tree), transform);
  const Canonical streamed = forced_canonical(text, transform);
  ASSERT_EQ(streamed.outcome, Outcome::kRead) << text;
  EXPECT_EQ(streamed.text, predicates::canonical(&normalized, true)) << text;
}

TEST(JsonStream, CanonicalLikeTheTree) {
  for (const auto& transform : {predicates::Transform(), folding(), stripping_digits()}) {
    for (const char* text :
         {R"({"order":{"id":25,"items":[{"sku":"sku-25","qty":25}]},"meta":{"source":"bench"}})",
          R"({"b":[3,1,2,[9,"x",null,true]],"a":{"z":1.5e300,"y":-0.0,"x":"\u00e9\"q"}})",
          R"({"A":1,"a":2,"A":3})", R"({"a":1,"A":2,"a":3})", R"({"K":{"X":"Y"},"k":[]})",
          R"([{"b":2},{"a":1}])", R"("A1b2")", "12", "null", "{}", "[]",
          "{\"\\u0041\":\"\\u00C9\",\"a\":\"v\"}"}) {
      expect_same_canonical(text, transform);
    }
  }
  EXPECT_EQ(forced_canonical(R"({"a":)", {}).outcome, Outcome::kNotJson);
  EXPECT_EQ(forced_canonical(R"({"n":123456789012345678901234567890})", {}).outcome,
            Outcome::kUnsupported);
}

// Through the predicate evaluator (Mountebank compares object bodies member by member).
TEST(JsonStream, BodyPredicates) {
  using testing::body_holds;
  const char* equals = R"J({"equals":{"body":{"id":25,"type":"request"}}})J";
  EXPECT_TRUE(body_holds(equals, R"({"id":25,"type":"request","extra":1})"));
  EXPECT_TRUE(body_holds(equals, R"({"ID":"25","TYPE":"Request"})"));
  EXPECT_FALSE(
      body_holds(R"J({"equals":{"body":{"id":25}},"caseSensitive":true})J", R"({"ID":25})"));
  EXPECT_FALSE(body_holds(equals, R"({"id":25})"));
  EXPECT_FALSE(body_holds(equals, R"({"id":25,"type":"request",})"));  // not JSON
  // An array body: any element may match the whole object (the tree path's rule).
  EXPECT_TRUE(body_holds(equals, R"([{"id":1},{"id":25,"type":"request"}])"));
  // Nested objects, arrays and JSON inside strings.
  EXPECT_TRUE(body_holds(R"J({"equals":{"body":{"a":{"b":"x"}}}})J", R"({"a":{"b":"x","c":1}})"));
  EXPECT_TRUE(body_holds(R"J({"equals":{"body":{"a":{"b":"x"}}}})J", R"({"a":"{\"b\":\"x\"}"})"));
  EXPECT_TRUE(body_holds(R"J({"contains":{"body":{"tags":"b"}}})J", R"({"tags":["a","bc"]})"));
  EXPECT_TRUE(body_holds(R"J({"equals":{"body":{"tags":["b","a"]}}})J", R"({"tags":["a","b"]})"));
  EXPECT_TRUE(body_holds(R"J({"exists":{"body":{"a":true,"b":false}}})J", R"({"a":"1"})"));
  EXPECT_TRUE(body_holds(R"J({"equals":{"body":{"a":"xy"}},"except":"\\d"})J", R"({"a":"x1y"})"));
  EXPECT_TRUE(body_holds(R"J({"equals":{"body":{"n":1e30}}})J",
                         R"({"n":1000000000000000000000000000000})"));
  EXPECT_TRUE(body_holds(R"J({"equals":{"body":{"a":2}}})J", R"({"a":1,"a":2})"));
  EXPECT_TRUE(body_holds(R"J({"matches":{"body":{"a":"^X"}}})J", R"({"a":"Xy"})"));
  // Spellings that fold together: the one that appeared first latest wins (JSON.parse keeps a
  // repeated key at its first position).
  EXPECT_TRUE(
      body_holds(R"J({"equals":{"body":{"a":"2"}}})J", "{\"\\u0041\":1,\"a\":2,\"\\u0041\":3}"));
  EXPECT_FALSE(
      body_holds(R"J({"equals":{"body":{"a":"3"}}})J", "{\"\\u0041\":1,\"a\":2,\"\\u0041\":3}"));
}

TEST(JsonStream, DeepEqualsBodies) {
  using testing::body_holds;
  const char* deep =
      R"J({"deepEquals":{"body":{"order":{"id":25,"items":[{"qty":25,"sku":"s"}]}}}})J";
  EXPECT_TRUE(body_holds(deep, R"({"order":{"items":[{"sku":"S","qty":"25"}],"id":25}})"));
  EXPECT_FALSE(body_holds(deep, R"({"order":{"items":[{"sku":"s","qty":25}],"id":25},"x":1})"));
  EXPECT_FALSE(body_holds(deep, R"({"order":{"items":[{"sku":"s","qty":25}],"id":25})"));
  EXPECT_TRUE(body_holds(R"J({"deepEquals":{"body":{"a":[1,2]}}})J", R"({"a":[2,1]})"));
  EXPECT_TRUE(
      body_holds(R"J({"deepEquals":{"body":{"a":"x"}},"except":"\\d"})J", R"({"a":"x12"})"));
  EXPECT_TRUE(body_holds(R"J({"deepEquals":{"body":{"n":"1e+30"}}})J",
                         R"({"n":1000000000000000000000000000000})"));
}

TEST(JsonStream, JsonPathPredicates) {
  using testing::body_holds;
  EXPECT_TRUE(body_holds(R"J({"equals":{"body":"25"},"jsonpath":{"selector":"$.user.id"}})J",
                         R"({"user":{"id":25,"name":"x"}})"));
  EXPECT_FALSE(body_holds(R"J({"equals":{"body":"25"},"jsonpath":{"selector":"$.user.id"}})J",
                          R"({"user":{"id":25,"name":x}})"));  // not JSON
  EXPECT_TRUE(body_holds(R"J({"equals":{"body":"A"},"jsonpath":{"selector":"$.User.Name"}})J",
                         R"({"USER":{"NAME":"a"}})"));
  EXPECT_FALSE(body_holds(
      R"J({"equals":{"body":"A"},"caseSensitive":true,"jsonpath":{"selector":"$.User.Name"}})J",
      R"({"USER":{"NAME":"A"}})"));
  // deepEquals forces strings before selecting.
  EXPECT_TRUE(body_holds(R"J({"deepEquals":{"body":"250"},"jsonpath":{"selector":"$.n"}})J",
                         R"({"n":250})"));
  EXPECT_TRUE(
      body_holds(R"J({"deepEquals":{"body":{"b":"true"}},"jsonpath":{"selector":"$.a[0]"}})J",
                 R"({"a":[{"b":true}]})"));
  EXPECT_TRUE(body_holds(R"J({"deepEquals":{"body":["2","1"]},"jsonpath":{"selector":"$.a[*]"}})J",
                         R"({"a":[1,2]})"));
  EXPECT_TRUE(
      body_holds(R"J({"exists":{"body":false},"jsonpath":{"selector":"$.a"}})J", R"("a string")"));
  // Integers beyond 64 bits take the tree path and read as JavaScript doubles.
  EXPECT_TRUE(
      body_holds(R"J({"equals":{"body":"1.2345678901234568e+29"},"jsonpath":{"selector":"$.a"}})J",
                 R"({"a":123456789012345678901234567890,"b":1})"));
}

}  // namespace
}  // namespace rift::json_stream
