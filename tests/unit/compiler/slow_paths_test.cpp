// RequestContext::slow_paths(): every predicate evaluated the plain way (fields read from the
// request's JSON form, bodies parsed into whole trees and documents, no cache shared) must
// answer as the fast paths do. The equivalence tester checks this on generated cases
// (tests/equivalence, tier "interpreter, slow paths only"); these are the forms each fast path
// takes, and the corner cases found while building it.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "compiler/json_stream.h"
#include "compiler/predicate_context.h"
#include "predicate_test_util.h"

namespace rift {
namespace {

// The predicate's answer, or the error it raised, with the given paths.
std::string answer(const std::string& predicate_json, const Request& request, bool slow) {
  auto prepared =
      PreparedPredicate::prepare(testing::predicate_from(ir::Json::parse(predicate_json)));
  if (prepared.index() != 0) return "creation error";
  RequestContext context(request);
  context.set_slow_paths(slow);
  try {
    return std::get<PreparedPredicate>(prepared).evaluate(context) ? "holds" : "fails";
  } catch (const EvalError& error) {
    return error.error().to_json().dump();
  }
}

void expect_same(const std::vector<std::string>& predicates,
                 const std::vector<std::string>& bodies) {
  for (const auto& predicate : predicates) {
    for (const auto& body : bodies) {
      const Request request = testing::request_with_body(body);
      EXPECT_EQ(answer(predicate, request, false), answer(predicate, request, true))
          << predicate << " on " << body;
    }
  }
}

TEST(SlowPaths, JsonBodiesAnswerAsOnTheTape) {
  std::string deep = std::string(1100, '[') + "1" + std::string(1100, ']');
  expect_same(
      {
          R"({"equals":{"body":{"id":"1"}}})",
          R"({"equals":{"body":{"id":1}}})",
          R"({"equals":{"body":{"ID":"1"}},"caseSensitive":true})",
          R"({"deepEquals":{"body":{"id":"1"}}})",
          R"({"deepEquals":{"body":{"id":["2","1"]}}})",
          R"({"equals":{"body":"1"},"jsonpath":{"selector":"$.id"}})",
          R"({"equals":{"body":"1"},"jsonpath":{"selector":"$.id[0]"}})",
          R"({"equals":{"body":"1"},"jsonpath":{"selector":"$[0].id"}})",
          R"({"equals":{"body":"2"},"jsonpath":{"selector":"$.id.length"}})",
          R"({"deepEquals":{"body":"1"},"jsonpath":{"selector":"$.id"}})",
          R"({"exists":{"body":true},"jsonpath":{"selector":"$.id"}})",
          R"({"exists":{"body":{"id":true}}})",
          R"({"matches":{"body":{"id":"^1"}}})",
          R"({"contains":{"body":{"id":"1"}},"caseSensitive":true})",
          R"({"equals":{"body":{"id":"1"}},"except":"\\d"})",
      },
      {
          R"({"id":"1"})",
          R"({"id":"1","id":"2"})",
          R"({"ID":"2","id":"1","Id":"3"})",
          R"({"id":-0})",
          R"({"id":1E2,"n":0.1e1})",
          R"({"id":100000000000000000000000})",
          R"({"id":"1","d":)" + deep + "}",
          R"({"id":"a\u0000b","a\u0000b":"1"})",
          R"({"id":[1,[2,[3]]]})",
          R"({"id":{"x":1}})",
          R"({"id":true,"n":null})",
          R"([{"id":"1"},{"id":2}])",
          R"(["{\"id\":\"1\"}"])",
          R"("{\"id\":\"1\"}")",
          "{\"id\":\"1\"}\n",
          "\t{\"id\":\"1\"}  ",
          R"({"id":"1",})",
          R"({"id":"\ud800"})",
          R"({"id":1e400})",
          "{\"id\":\"\xC3\x28\"}",
          "[]",
          "{}",
          "",
      });
}

// nlohmann's parser, the slow paths' JSON.parse, skips a UTF-8 byte order mark; JSON.parse
// (and simdjson) refuse one, so such a body is text, not JSON. The slow paths used to read it
// as JSON: the oracle was wrong, the fast paths right.
TEST(SlowPaths, AByteOrderMarkIsNotJson) {
  const std::string bom = "\xEF\xBB\xBF";
  EXPECT_FALSE(json_stream::parse_plainly(bom + R"({"id":"1"})"));
  EXPECT_FALSE(json_stream::parse(bom + R"({"id":"1"})"));
  // Texts simdjson hands to the plain parser refuse it too.
  EXPECT_FALSE(json_stream::parse(bom + R"({"id":123456789012345678901234567890})"));
  EXPECT_EQ(json_stream::parse_plainly(R"({"id":123456789012345678901234567890})"),
            json_stream::parse(R"({"id":123456789012345678901234567890})"));
  for (bool slow : {false, true}) {
    EXPECT_EQ(answer(R"({"equals":{"body":{"id":"1"}}})",
                     testing::request_with_body(bom + R"({"id":"1"})"), slow),
              "fails");
    EXPECT_EQ(answer(R"({"equals":{"body":"1"},"jsonpath":{"selector":"$.id"}})",
                     testing::request_with_body(bom + R"({"id":"1"})"), slow),
              "fails");
  }
}

// nlohmann's lexer ends the text at a NUL byte, so the slow paths read `{"id":"1"}\0...` as
// JSON; JSON.parse and simdjson refuse it (found by tests/fuzz/fuzz_predicates).
TEST(SlowPaths, ANulByteIsNotTheEndOfJson) {
  const std::string json = R"({"id":"1"})";
  for (const std::string& body :
       {json + '\0', json + std::string(8, '\0') + "junk",
        R"({"id":123456789012345678901234567890})" + std::string(1, '\0')}) {
    EXPECT_FALSE(json_stream::parse_plainly(body));
    EXPECT_FALSE(json_stream::parse(body));
    EXPECT_TRUE(json_stream::parse_nlohmann(body).is_discarded());
    for (bool slow : {false, true}) {
      EXPECT_EQ(answer(R"({"equals":{"body":{"id":"1"}}})", testing::request_with_body(body), slow),
                "fails");
    }
  }
  EXPECT_TRUE(json_stream::parse(R"({"id":"\u0000"})"));
}

TEST(SlowPaths, XmlBodiesAnswerAsInTheSaxPass) {
  expect_same(
      {
          R"({"equals":{"body":"1"},"xpath":{"selector":"//id"}})",
          R"({"equals":{"body":"1"},"xpath":{"selector":"//id"},"caseSensitive":true})",
          R"({"equals":{"body":"a"},"xpath":{"selector":"//name"},"caseSensitive":true})",
          R"({"equals":{"body":"b"},"xpath":{"selector":"//item[@id='2']"}})",
          R"({"exists":{"body":true},"xpath":{"selector":"//item[@type=\"a\"]"}})",
          R"({"equals":{"body":"2"},"xpath":{"selector":"//n:id","ns":{"n":"urn:x"}}})",
          R"({"equals":{"body":"1"},"xpath":{"selector":"//n:id"}})",
          R"({"deepEquals":{"body":["a","b"]},"xpath":{"selector":"//item"}})",
      },
      {
          "<root><id>1</id><name>a</name><item>a</item><item>b</item></root>",
          "<root xmlns=\"urn:d\" xmlns:n=\"urn:x\"><id>1</id><n:id>2</n:id></root>",
          "<root><item id=\"1\">a<item id=\"2\">b</item></item><item id=\"2\"/></root>",
          "<root><id>1<![CDATA[2]]></id><name><![CDATA[a]]>b</name><item>a<!--c-->b</item></root>",
          "<root><item type=\"a&amp;b\">x</item><item type=\"a\">y</item></root>",
          "<!DOCTYPE root [<!ENTITY e \"v\">]><root><id>&e;</id></root>",
          "<root><id>1</id>",
          "not xml",
          "",
      });
}

TEST(SlowPaths, PlainFieldsAnswerAsReadGenerically) {
  const std::vector<std::string> predicates = {
      R"({"equals":{"method":"get","PATH":"/a"}})",
      R"({"equals":{"Method":"GET"},"caseSensitive":true})",
      R"({"equals":{"query":{"q":"1"}}})",
      R"({"equals":{"query":{"q":["1","2"]}}})",
      R"({"equals":{"headers":{"x-id":"b"}}})",
      R"({"exists":{"headers":{"accept":true},"body":false}})",
      R"({"startsWith":{"path":"/A"},"except":"\\d"})",
      R"({"matches":{"requestFrom":"^127"}})",
      R"({"equals":{"form":{"name":"a"}}})",
      R"({"equals":{"nothing":""}})",
  };
  Request request = testing::request("GET", "/a", {{"q", "1"}, {"q", "2"}, {"Q", "3"}},
                                     {{"X-Id", "a"}, {"x-id", "b"}, {"Accept", ""}});
  request.request_from = "127.0.0.1:5000";
  Request form = request;
  form.form = KeyValues{{"name", "a"}};
  Request no_body = request;
  no_body.body.reset();
  for (const auto& predicate : predicates) {
    for (const Request* r : {&request, &form, &no_body}) {
      EXPECT_EQ(answer(predicate, *r, false), answer(predicate, *r, true)) << predicate;
    }
  }
}

// The slow paths share nothing between predicates: no entry of the predicate caches is filled.
TEST(SlowPaths, NoPredicateCacheIsUsed) {
  auto prepared = PreparedPredicate::prepare(testing::predicate_from(
      ir::Json::parse(R"({"equals":{"body":"1"},"jsonpath":{"selector":"$..id"}})")));
  ASSERT_EQ(prepared.index(), 0u);
  const Request request = testing::request_with_body(R"({"id":1})");
  RequestContext context(request);
  context.set_slow_paths(true);
  EXPECT_TRUE(std::get<PreparedPredicate>(prepared).evaluate(context));
  EXPECT_EQ(context.caches().fields.filled(), 0u);
  EXPECT_EQ(context.caches().parsed.filled(), 0u);
  RequestContext fast(request);
  EXPECT_TRUE(std::get<PreparedPredicate>(prepared).evaluate(fast));
  EXPECT_EQ(fast.caches().fields.filled(), 1u);
  EXPECT_EQ(fast.caches().parsed.filled(), 1u);
}

}  // namespace
}  // namespace rift
