// The planner's inputs: plan::request_values, the one definition of the values a request offers
// a value index (the interpreter and compiled code both use it). The literal head of a `matches`
// pattern is read by compiler/regex_literals.h (regex_literals_test.cpp).
#include "compiler/plan_facts.h"

#include <gtest/gtest.h>

#include "compiler/plan.h"

namespace rift {
namespace {

const std::vector<std::string>& values(RequestContext& context, plan::Field field,
                                       const char* key) {
  return plan::request_values(context, field, key);
}

using Values = std::vector<std::string>;

TEST(RequestValues, QueryAndHeadersFoldNamesAndValues) {
  Request request;
  request.query = {{"Page", "A"},
                   {"page", "b"},
                   {"PAGE", "a"},
                   {"other", "x"},
                   {"\xC4\xB0"
                    "d",
                    "1"}};
  request.headers = {{"X-Id", "One"}, {"x-id", "two"}};
  RequestContext context(request);
  EXPECT_EQ(values(context, plan::Field::kQuery, "page"), (Values{"a", "b"}));
  EXPECT_EQ(values(context, plan::Field::kQuery, "id"), (Values{"1"}));  // İd folds to id
  EXPECT_EQ(values(context, plan::Field::kQuery, "missing"), Values{});
  EXPECT_EQ(values(context, plan::Field::kHeader, "x-id"), (Values{"one", "two"}));
}

TEST(RequestValues, SelectorResultsAsEqualsComparesThem) {
  Request request;
  request.body = R"({"User": {"Id": 7, "Tags": ["A", null, 2.50]}, "n": null,
                     "items": [{"id": 1}, {"id": "X"}]})";
  RequestContext context(request);
  using plan::Field;
  EXPECT_EQ(values(context, Field::kBodySelector, "$.user.id"), (Values{"7"}));
  EXPECT_EQ(values(context, Field::kBodySelector, "$.user.tags"), (Values{"2.5", "a"}));
  EXPECT_EQ(values(context, Field::kBodySelector, "$.items[*].id"), (Values{"1", "x"}));
  EXPECT_EQ(values(context, Field::kBodySelector, "$.user"), (Values{"[object object]"}));
  EXPECT_EQ(values(context, Field::kBodySelector, "$.n"), Values{});
  EXPECT_EQ(values(context, Field::kBodySelector, "$.missing"), Values{});
  EXPECT_EQ(values(context, Field::kBodySelector, "$[bad"), Values{});
}

TEST(RequestValues, MemberSelectorsAlsoSearchArrayBodies) {
  Request request;
  request.body = R"([0, "", {"id": 1}, [{"id": [2, [3, 4]]}], "{\"id\": 5}", "nope"])";
  RequestContext context(request);
  EXPECT_EQ(values(context, plan::Field::kBodySelector, "$.id"), (Values{"1", "2", "3,4", "5"}));
  EXPECT_EQ(values(context, plan::Field::kBodySelector, "$[0]"), (Values{"0"}));
}

TEST(RequestValues, AMemberSelectorReadsTheBodyFoldedAsTheTreePathDoes) {
  // Folding comes before parsing: TRUE becomes JSON, and Id/id are one key whose last value wins.
  Request request;
  request.body = R"({"Flag": TRUE, "Id": [1, "A"], "Tags": ["X", null], "id": 3})";
  RequestContext context(request);
  EXPECT_EQ(values(context, plan::Field::kBodySelector, "$.flag"), (Values{"true"}));
  EXPECT_EQ(values(context, plan::Field::kBodySelector, "$.id"), (Values{"3"}));
  EXPECT_EQ(values(context, plan::Field::kBodySelector, "$.tags"), (Values{"x"}));
}

TEST(RequestValues, BodiesThatAreNotJsonObjects) {
  for (const char* body : {"", "text", "\"7\"", "7"}) {
    Request request;
    request.body = body;
    RequestContext context(request);
    EXPECT_EQ(values(context, plan::Field::kBodySelector, "$.id"), Values{}) << body;
  }
  Request no_body;
  no_body.body.reset();
  RequestContext context(no_body);
  EXPECT_EQ(values(context, plan::Field::kBodySelector, "$.id"), Values{});
}

TEST(LookupText, AsciiAsIsOtherwiseJavaScriptLowerCase) {
  std::string scratch;
  EXPECT_EQ(plan::lookup_text("/Users", scratch), "/Users");
  EXPECT_EQ(plan::lookup_text("/\xC4\xB0"
                              "D",
                              scratch),
            "/id");
}

}  // namespace
}  // namespace rift
