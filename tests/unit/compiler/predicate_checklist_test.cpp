// docs/mountebank-semantics.md §11, checklist items 44-62: the predicate semantics.
#include <gtest/gtest.h>

#include "compiler/validate.h"
#include "predicate_test_util.h"

namespace rift {
namespace {

using testing::body_holds;
using testing::holds;
using testing::request_with_body;

Request get(std::string path, KeyValues query = {}, KeyValues headers = {}) {
  Request request;
  request.method = "GET";
  request.path = std::move(path);
  request.query = std::move(query);
  request.headers = std::move(headers);
  return request;
}

TEST(Checklist, Item44HeaderKeysAndValuesFold) {
  const Request request = get("/", {}, {{"Key", "value"}});
  EXPECT_TRUE(holds(R"J({"equals":{"headers":{"KEY":"VALUE"}}})J", request));
  EXPECT_FALSE(holds(R"J({"equals":{"headers":{"KEY":"VALUE"}},"caseSensitive":true})J", request));
  EXPECT_TRUE(holds(R"J({"equals":{"headers":{"Key":"value"}},"caseSensitive":true})J", request));
}

TEST(Checklist, Item45MissingFieldEqualsEmpty) {
  const Request request = get("/");
  EXPECT_TRUE(holds(R"J({"equals":{"query":{"f":""}}})J", request));
  EXPECT_FALSE(holds(R"J({"deepEquals":{"query":{"f":""}}})J", request));
  Request no_body = get("/");
  no_body.body.reset();
  EXPECT_TRUE(holds(R"J({"equals":{"body":""}})J", no_body));
  EXPECT_FALSE(holds(R"J({"deepEquals":{"body":""}})J", no_body));
}

TEST(Checklist, Item46RepeatedQueryKeys) {
  const Request request = get("/", {{"key", "123"}, {"key", "234"}});
  EXPECT_TRUE(holds(R"J({"equals":{"query":{"key":"234"}}})J", request));
  EXPECT_FALSE(holds(R"J({"equals":{"query":{"key":"23"}}})J", request));
  EXPECT_TRUE(holds(R"J({"equals":{"query":{"key":23}}})J", get("/", {{"key", "23"}})));
}

TEST(Checklist, Item47Except) {
  EXPECT_TRUE(
      body_holds(R"J({"equals":{"body":"This is a test"},"except":"\\d+"})J", "1This is 3a 2test"));
  EXPECT_FALSE(body_holds(R"J({"equals":{"body":"This is a test"}})J", "1This is 3a 2test"));
}

TEST(Checklist, Item48DeepEqualsQueryKeySets) {
  EXPECT_TRUE(holds(R"J({"deepEquals":{"query":{}}})J", get("/")));
  EXPECT_FALSE(holds(R"J({"deepEquals":{"query":{}}})J", get("/", {{"a", "1"}})));
  EXPECT_TRUE(holds(R"J({"deepEquals":{"query":{"key":"value"}}})J", get("/", {{"key", "value"}})));
  EXPECT_FALSE(holds(R"J({"deepEquals":{"query":{"key":"value"}}})J",
                     get("/", {{"key", "value"}, {"other", "x"}})));
  EXPECT_TRUE(holds(R"J({"equals":{"query":{}}})J", get("/", {{"a", "1"}})));
}

TEST(Checklist, Item49DeepEqualsRepeatedKeysOrderFree) {
  const char* predicate = R"J({"deepEquals":{"query":{"key":["first","second"]}}})J";
  EXPECT_TRUE(holds(predicate, get("/", {{"key", "second"}, {"key", "first"}})));
  const Request three = get("/", {{"key", "second"}, {"key", "first"}, {"key", "third"}});
  EXPECT_FALSE(holds(predicate, three));
  EXPECT_TRUE(holds(R"J({"equals":{"query":{"key":["first","second"]}}})J", three));
}

TEST(Checklist, Item50JsonBody) {
  const std::string body = R"J({"key":"value","arr":[3,2,1]})J";
  EXPECT_TRUE(body_holds(R"J({"equals":{"body":{"key":"value"}}})J", body));
  EXPECT_TRUE(body_holds(R"J({"equals":{"body":{"arr":3}}})J", body));
  EXPECT_TRUE(body_holds(R"J({"deepEquals":{"body":{"key":"value","arr":[2,1,3]}}})J", body));
  EXPECT_FALSE(body_holds(R"J({"deepEquals":{"body":{"key":"value","arr":[2,1]}}})J", body));
  EXPECT_FALSE(body_holds(R"J({"deepEquals":{"body":{"key":"value"}}})J", body));
  EXPECT_TRUE(body_holds(R"J({"matches":{"body":{"key":"^v"}}})J", body));
  EXPECT_FALSE(body_holds(R"J({"equals":{"body":{"key":"other"}}})J", body));
}

TEST(Checklist, Item51NullsAndMatchesKeys) {
  EXPECT_TRUE(body_holds(R"J({"deepEquals":{"body":{"field":null}}})J", R"J({"field":null})J"));
  EXPECT_TRUE(body_holds(R"J({"equals":{"body":{"version":null}}})J", R"J({"version":null})J"));
  EXPECT_FALSE(body_holds(R"J({"equals":{"body":{"version":null}}})J", R"J({"version":"null"})J"));
  EXPECT_FALSE(body_holds(R"J({"equals":{"body":{"version":"null"}}})J", R"J({"version":null})J"));
  EXPECT_TRUE(body_holds(R"J({"matches":{"body":{"KEY":"^Value"}}})J", R"J({"Key":"Value"})J"));
  EXPECT_FALSE(body_holds(R"J({"matches":{"body":{"KEY":"^Value"}},"caseSensitive":true})J",
                          R"J({"Key":"Value"})J"));
  EXPECT_TRUE(body_holds(R"J({"matches":{"body":{"Key":"^Value"}},"caseSensitive":true})J",
                         R"J({"Key":"Value"})J"));
}

TEST(Checklist, Item52ArrayOfObjects) {
  Request request =
      get("/", {{"examples", R"J([{"key":"first"},{"different":true},{"key":"third"}])J"}});
  EXPECT_TRUE(holds(R"J({"equals":{"query":{"examples":{"key":"third"}}}})J", request));
  EXPECT_FALSE(holds(R"J({"equals":{"query":{"examples":{"key":"fourth"}}}})J", request));
  EXPECT_TRUE(body_holds(R"J({"equals":{"body":{"key":"third"}}})J",
                         R"J([{"key":"first"},{"different":true},{"key":"third"}])J"));
}

TEST(Checklist, Item53ContainsArrays) {
  const std::string body = R"J({"f":["begin","middle","end"]})J";
  EXPECT_TRUE(body_holds(R"J({"contains":{"body":{"f":["be","nd","iddl"]}}})J", body));
  EXPECT_FALSE(body_holds(R"J({"contains":{"body":{"f":["be","nd","iddl","wtf"]}}})J", body));
}

TEST(Checklist, Item54Exists) {
  EXPECT_TRUE(body_holds(R"J({"exists":{"body":{"f":true}}})J", R"J({"f":0})J"));
  EXPECT_TRUE(body_holds(R"J({"exists":{"body":{"f":true}}})J", R"J({"f":{}})J"));
  EXPECT_TRUE(body_holds(R"J({"exists":{"body":{"f":true}}})J", R"J({"f":"x"})J"));
  EXPECT_FALSE(body_holds(R"J({"exists":{"body":{"f":true}}})J", R"J({"f":""})J"));
  EXPECT_FALSE(body_holds(R"J({"exists":{"body":{"f":true}}})J", R"J({"g":1})J"));
  EXPECT_TRUE(body_holds(R"J({"exists":{"body":{"f":false}}})J", R"J({"g":1})J"));
  EXPECT_TRUE(holds(R"J({"exists":{"headers":{"X":false}}})J", get("/")));
  EXPECT_FALSE(holds(R"J({"exists":{"headers":{"X":true}}})J", get("/")));
  EXPECT_TRUE(holds(R"J({"exists":{"headers":{"X":true}}})J", get("/", {}, {{"x", "1"}})));
  EXPECT_FALSE(holds(R"J({"exists":{"form":{"a":false}}})J", get("/")));
  EXPECT_TRUE(holds(R"J({"exists":{"query":true}})J", get("/")));
}

TEST(Checklist, Item55Matches) {
  EXPECT_TRUE(body_holds(R"J({"matches":{"body":"END$"}})J", "the End"));
  EXPECT_FALSE(body_holds(R"J({"matches":{"body":"END$"},"caseSensitive":true})J", "the End"));
  EXPECT_FALSE(body_holds(R"J({"matches":{"body":"END$"}})J", "the End\n"));
  EXPECT_TRUE(body_holds(R"J({"matches":{"body":"\\d\\D\\d"}})J", "1a2"));
  EXPECT_FALSE(body_holds(R"J({"matches":{"body":"\\d\\D\\d"}})J", "123"));
}

TEST(Checklist, Item56Combinators) {
  EXPECT_FALSE(body_holds(R"J({"not":{"equals":{"body":"this"}}})J", "this"));
  EXPECT_TRUE(body_holds(R"J({"not":{"equals":{"body":"this"}}})J", "that"));
  EXPECT_TRUE(
      body_holds(R"J({"or":[{"equals":{"body":"x"}},{"equals":{"body":"this"}}]})J", "this"));
  EXPECT_FALSE(body_holds(R"J({"or":[]})J", "this"));
  EXPECT_TRUE(body_holds(R"J({"and":[]})J", "this"));
  EXPECT_FALSE(
      body_holds(R"J({"and":[{"equals":{"body":"this"}},{"equals":{"method":"GET"}}]})J", "this"));
  EXPECT_TRUE(
      body_holds(R"J({"and":[{"equals":{"body":"this"}},{"equals":{"method":"POST"}}]})J", "this"));
  EXPECT_TRUE(holds(R"J({"equals":{"path":"/x"},"contains":{"path":"zz"}})J", get("/x")));
}

TEST(Checklist, Item57JsonPath) {
  EXPECT_TRUE(body_holds(R"J({"equals":{"body":"VALUE"},"jsonpath":{"selector":"$..Title"}})J",
                         R"J({"title":"value"})J"));
  EXPECT_FALSE(body_holds(
      R"J({"equals":{"body":"value"},"jsonpath":{"selector":"$..title"},"caseSensitive":true})J",
      R"J({"TITLE":"value"})J"));
  EXPECT_TRUE(
      body_holds(R"J({"equals":{"body":""},"jsonpath":{"selector":"$..title"}})J", "not json"));
  EXPECT_TRUE(
      body_holds(R"J({"exists":{"body":false},"jsonpath":{"selector":"$..title"}})J", "not json"));
}

TEST(Checklist, Item58JsonPathSeveralResults) {
  const std::string body =
      R"J({"title":{"first":{"attribute":"value"},"second":{"attribute":"other value"}}})J";
  EXPECT_TRUE(body_holds(
      R"J({"deepEquals":{"body":["other value","value"]},"jsonpath":{"selector":"$.title..attribute"}})J",
      body));
  EXPECT_TRUE(body_holds(
      R"J({"deepEquals":{"body":["value","other value"]},"jsonpath":{"selector":"$.title..attribute"}})J",
      body));
  EXPECT_FALSE(body_holds(
      R"J({"deepEquals":{"body":["value"]},"jsonpath":{"selector":"$.title..attribute"}})J", body));
  EXPECT_TRUE(body_holds(R"J({"equals":{"body":false},"jsonpath":{"selector":"$..active"}})J",
                         R"J({"active":false})J"));
  EXPECT_FALSE(body_holds(R"J({"equals":{"body":true},"jsonpath":{"selector":"$..active"}})J",
                          R"J({"active":false})J"));
}

TEST(Checklist, Item59XPathCase) {
  const std::string body = "<DOC><TITLE>value</TITLE></DOC>";
  EXPECT_TRUE(body_holds(R"J({"equals":{"body":"VALUE"},"xpath":{"selector":"//Title"}})J", body));
  EXPECT_FALSE(body_holds(
      R"J({"equals":{"body":"VALUE"},"xpath":{"selector":"//Title"},"caseSensitive":true})J",
      body));
}

TEST(Checklist, Item60XPathNamespaces) {
  const std::string body =
      R"J(<root xmlns:b="http://example.com/book"><b:title>Harry</b:title></root>)J";
  EXPECT_TRUE(body_holds(
      R"J({"equals":{"body":"harry"},"xpath":{"selector":"//bookml:title/text()","ns":{"bookml":"http://example.com/book"}}})J",
      body));
  EXPECT_FALSE(body_holds(
      R"J({"equals":{"body":"harry"},"xpath":{"selector":"//bookml:title/text()","ns":{"bookml":"http://example.com/other"}}})J",
      body));
}

TEST(Checklist, Item61XPathFunctions) {
  EXPECT_TRUE(body_holds(R"J({"equals":{"body":2},"xpath":{"selector":"count(//title)"}})J",
                         "<doc><title>a</title><title>b</title></doc>"));
  EXPECT_TRUE(body_holds(R"J({"equals":{"body":false},"xpath":{"selector":"boolean(//title)"}})J",
                         "<doc/>"));
  EXPECT_TRUE(body_holds(R"J({"equals":{"body":0},"xpath":{"selector":"count(//x)"}})J", "hello"));
}

TEST(Checklist, Item62XPathExistsAndMalformed) {
  const char* predicate = R"J({"exists":{"body":true},"xpath":{"selector":"//book"}})J";
  EXPECT_TRUE(body_holds(predicate, "<books><book></book></books>"));
  EXPECT_FALSE(body_holds(predicate, "<books/>"));

  ir::Stub stub;
  stub.predicates.push_back(testing::predicate_from(
      ir::Json::parse(R"J({"exists":{"body":true},"xpath":{"selector":"=*INVALID*="}})J")));
  const MbErrors errors = validate_predicates(stub);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].code, "bad data");
  EXPECT_EQ(errors[0].message, "malformed xpath predicate selector");
}

}  // namespace
}  // namespace rift
