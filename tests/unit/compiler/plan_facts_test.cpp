// The planner's inputs: the literal head of a `matches` pattern, and plan::request_values, the
// one definition of the values a request offers a value index (the interpreter and compiled
// code both use it).
#include "compiler/plan_facts.h"

#include <gtest/gtest.h>

#include "compiler/plan.h"

namespace rift {
namespace {

using plan::regex_head;

std::string head(const char* pattern) {
  auto found = regex_head(pattern);
  if (!found) return "(none)";
  return found->literal + (found->whole ? " (whole)" : "");
}

TEST(RegexHead, PlainCharactersAndEscapedPunctuation) {
  EXPECT_EQ(head("^/api/v1/"), "/api/v1/");
  EXPECT_EQ(head(R"(^\/api\/v1\.json)"), "/api/v1.json");
  EXPECT_EQ(head(R"(^/a\-b_c~d)"), "/a-b_c~d");
  EXPECT_EQ(head("^/users/[0-9]+$"), "/users/");
  EXPECT_EQ(head(R"(^/users/\d+)"), "/users/");
  EXPECT_EQ(head("^/a(b)?"), "/a");
  EXPECT_EQ(head("^/a.b"), "/a");
  EXPECT_EQ(head("^/A$"), "/A (whole)");
  EXPECT_EQ(head(R"(^/a\$)"), "/a$");
}

TEST(RegexHead, AQuantifierTakesTheLastCharacter) {
  EXPECT_EQ(head("^/ab*"), "/a");
  EXPECT_EQ(head("^/ab+"), "/a");
  EXPECT_EQ(head("^/ab?"), "/a");
  EXPECT_EQ(head("^/ab{2}"), "/a");
  EXPECT_EQ(head(R"(^/a\.*)"), "/a");
  EXPECT_EQ(head("^/?x"), "(none)");
  EXPECT_EQ(head("^/ab?$"), "/a");  // not whole: the quantifier decides
}

TEST(RegexHead, Refused) {
  EXPECT_EQ(head("/api"), "(none)");  // not anchored
  EXPECT_EQ(head("^"), "(none)");
  EXPECT_EQ(head("^^/a"), "(none)");
  EXPECT_EQ(head(R"(^\d)"), "(none)");
  EXPECT_EQ(head(R"(^\u002f)"), "(none)");
  EXPECT_EQ(head("^/a|/b"), "(none)");
  EXPECT_EQ(head("^/(a|b)"), "(none)");
  EXPECT_EQ(head("^/\xC3\xA9"), "(none)");
  EXPECT_EQ(head("^/a\tb"), "(none)");
  EXPECT_EQ(head("^[/]a"), "(none)");
}

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
