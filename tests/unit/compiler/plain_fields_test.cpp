// Fields the evaluator reads straight from the Request (predicate_eval.cpp, Field::plain) must
// answer exactly as Mountebank's JSON form of the request does: repeated keys, several
// spellings of one name, missing members, caseSensitive and `except`.
#include <gtest/gtest.h>

#include "predicate_test_util.h"

namespace rift {
namespace {

using testing::holds;
using testing::request;

// group_key_values gives {"X-A": ["1", "3"], "x-a": "2"}; folding the names, the spelling that
// appeared last ("x-a") overwrites the first, so only "2" is left under "x-a".
const KeyValues kSpellings = {{"X-A", "1"}, {"x-a", "2"}, {"X-A", "3"}};

TEST(PlainFields, TheLastSpellingOfAFoldedNameWins) {
  const Request r = request("GET", "/", {}, kSpellings);
  EXPECT_TRUE(holds(R"({"equals": {"headers": {"X-A": "2"}}})", r));
  EXPECT_FALSE(holds(R"({"equals": {"headers": {"x-a": "1"}}})", r));
  EXPECT_FALSE(holds(R"({"contains": {"headers": {"x-a": "3"}}})", r));
  // caseSensitive keeps the spellings apart; a repeated one is an array of its values.
  EXPECT_TRUE(holds(R"({"equals": {"headers": {"X-A": "3"}}, "caseSensitive": true})", r));
  EXPECT_TRUE(holds(R"({"equals": {"headers": {"x-a": "2"}}, "caseSensitive": true})", r));
  EXPECT_FALSE(holds(R"({"equals": {"headers": {"x-a": "1"}}, "caseSensitive": true})", r));
  // Query keys follow the same rules.
  const Request q = request("GET", "/", kSpellings);
  EXPECT_TRUE(holds(R"({"equals": {"query": {"x-A": "2"}}})", q));
  EXPECT_FALSE(holds(R"({"equals": {"query": {"X-A": "3"}}})", q));
}

TEST(PlainFields, RepeatedKeysAreArrays) {
  const Request r = request("GET", "/", {{"id", "One"}, {"id", "two"}});
  EXPECT_TRUE(holds(R"({"equals": {"query": {"id": "one"}}})", r));
  EXPECT_TRUE(holds(R"({"startsWith": {"query": {"id": "tw"}}})", r));
  EXPECT_TRUE(holds(R"({"equals": {"query": {"id": "One"}}, "caseSensitive": true})", r));
  EXPECT_FALSE(holds(R"({"equals": {"query": {"id": "one"}}, "caseSensitive": true})", r));
  EXPECT_TRUE(holds(R"({"exists": {"query": {"id": true}}})", r));
  EXPECT_FALSE(holds(R"({"exists": {"query": {"id": false}}})", r));
  // `matches` ignores case unless caseSensitive, and never folds the value itself.
  EXPECT_TRUE(holds(R"({"matches": {"query": {"id": "^o"}}})", r));
  EXPECT_TRUE(holds(R"({"matches": {"query": {"id": "^O"}}, "caseSensitive": true})", r));
  EXPECT_FALSE(holds(R"({"matches": {"query": {"id": "^o"}}, "caseSensitive": true})", r));
}

TEST(PlainFields, MissingMembersCompareAsEmpty) {
  Request r = request("GET", "/p", {}, {{"Host", "h"}});
  EXPECT_TRUE(holds(R"({"equals": {"headers": {"X-None": ""}}})", r));
  EXPECT_TRUE(holds(R"({"exists": {"headers": {"X-None": false, "host": true}}})", r));
  EXPECT_FALSE(holds(R"({"exists": {"headers": {"X-None": true}}})", r));
  EXPECT_TRUE(holds(R"({"equals": {"nothing": ""}})", r));
  EXPECT_FALSE(holds(R"({"equals": {"nothing": "x"}})", r));
  // No form at all is not an empty form: an object expected of it never holds.
  EXPECT_FALSE(holds(R"({"equals": {"form": {}}})", r));
  r.form = KeyValues{{"a", "B"}};
  EXPECT_TRUE(holds(R"({"equals": {"form": {"A": "b"}}})", r));
  r.body = std::nullopt;
  EXPECT_TRUE(holds(R"({"equals": {"body": ""}})", r));
}

TEST(PlainFields, TextMembersFoldAndStripExcept) {
  Request r = request("post", "/Orders/42", {}, {}, "Hello World");
  r.request_from = "10.0.0.1:5000";
  r.ip = "10.0.0.1";
  EXPECT_TRUE(holds(R"({"equals": {"method": "POST", "path": "/orders/42"}})", r));
  EXPECT_FALSE(holds(R"({"equals": {"path": "/orders/42"}, "caseSensitive": true})", r));
  EXPECT_TRUE(holds(R"({"equals": {"path": "/orders/"}, "except": "\\d+"})", r));
  EXPECT_TRUE(holds(R"({"endsWith": {"body": "WORLD"}})", r));
  EXPECT_TRUE(holds(R"({"matches": {"body": "^Hello"}})", r));
  EXPECT_FALSE(holds(R"({"matches": {"body": "^hello"}, "caseSensitive": true})", r));
  EXPECT_TRUE(holds(R"({"equals": {"requestFrom": "10.0.0.1:5000", "ip": "10.0.0.1"}})", r));
  EXPECT_TRUE(holds(R"({"equals": {"requestFrom": "10.0.0.1:5000"}, "caseSensitive": true})", r));
  // caseSensitive keeps the member name as written: "requestfrom" names nothing.
  EXPECT_FALSE(holds(R"({"equals": {"requestfrom": "10.0.0.1:5000"}, "caseSensitive": true})", r));
  EXPECT_TRUE(holds(R"({"equals": {"REQUESTFROM": "10.0.0.1:5000"}})", r));
  EXPECT_FALSE(holds(R"({"equals": {"body": null}})", r));
}

TEST(PlainFields, NonAsciiNamesFoldLikeJavaScript) {
  const Request r = request("GET", "/", {}, {{"\u00c4-Id", "V"}});
  EXPECT_TRUE(holds(R"({"equals": {"headers": {"ä-id": "v"}}})", r));
  EXPECT_FALSE(holds(R"({"equals": {"headers": {"ä-id": "v"}}, "caseSensitive": true})", r));
}

}  // namespace
}  // namespace rift
