#include "frontends/predicate_parser.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_helpers.h"

namespace rift::frontends {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::json;
using testing::messages;
using testing::stub_errors;

ir::Predicate parsed(const char* text) {
  auto result = parse_predicate(json(text));
  EXPECT_TRUE(std::holds_alternative<ir::Predicate>(result)) << text;
  return std::holds_alternative<ir::Predicate>(result) ? std::get<ir::Predicate>(result)
                                                       : ir::Predicate{};
}

TEST(PredicateParser, FieldOperator) {
  const auto predicate = parsed(R"({"equals":{"path":"/x","query":{"a":"1"}}})");
  EXPECT_EQ(predicate.op, ir::Op::kEquals);
  EXPECT_EQ(predicate.fields, json(R"({"path":"/x","query":{"a":"1"}})"));
  EXPECT_FALSE(predicate.case_sensitive);
  EXPECT_EQ(predicate.except, "");
  EXPECT_FALSE(predicate.jsonpath);
  EXPECT_FALSE(predicate.xpath);
}

TEST(PredicateParser, FirstOperatorInJsonOrderWins) {
  const auto predicate =
      parsed(R"({"caseSensitive":true,"equals":{"path":"/x"},"contains":{"path":"zz"}})");
  EXPECT_EQ(predicate.op, ir::Op::kEquals);
  EXPECT_EQ(predicate.fields, json(R"({"path":"/x"})"));
  EXPECT_TRUE(predicate.case_sensitive);
  EXPECT_EQ(parsed(R"({"contains":{"path":"zz"},"equals":{"path":"/x"}})").op, ir::Op::kContains);
}

TEST(PredicateParser, Modifiers) {
  auto predicate = parsed(
      R"({"matches":{"body":"^v"},"caseSensitive":1,"except":"\\d+","jsonpath":{"selector":"$..title"}})");
  EXPECT_EQ(predicate.op, ir::Op::kMatches);
  EXPECT_TRUE(predicate.case_sensitive);
  EXPECT_EQ(predicate.except, "\\d+");
  EXPECT_EQ(predicate.jsonpath, "$..title");

  predicate = parsed(
      R"({"equals":{"body":"x"},"xpath":{"selector":"//b:title","ns":{"b":"http://example.com/book"}}})");
  ASSERT_TRUE(predicate.xpath);
  EXPECT_EQ(predicate.xpath->selector, "//b:title");
  EXPECT_EQ(predicate.xpath->ns,
            (std::map<std::string, std::string>{{"b", "http://example.com/book"}}));
}

TEST(PredicateParser, Combinators) {
  const auto predicate = parsed(R"({"or":[
    {"not":{"equals":{"method":"GET"}}},
    {"and":[{"exists":{"body":true}},{"startsWith":{"path":"/a"}}]},
    {"inject":"config => true"}]})");
  EXPECT_EQ(predicate.op, ir::Op::kOr);
  ASSERT_EQ(predicate.children.size(), 3u);
  EXPECT_EQ(predicate.children[0].op, ir::Op::kNot);
  ASSERT_EQ(predicate.children[0].children.size(), 1u);
  EXPECT_EQ(predicate.children[0].children[0].op, ir::Op::kEquals);
  EXPECT_EQ(predicate.children[1].op, ir::Op::kAnd);
  EXPECT_EQ(predicate.children[1].children.size(), 2u);
  EXPECT_EQ(predicate.children[1].children[1].op, ir::Op::kStartsWith);
  EXPECT_EQ(predicate.children[2].op, ir::Op::kInject);
  EXPECT_EQ(predicate.children[2].inject, "config => true");
}

TEST(PredicateParser, MissingPredicateNamesThePredicate) {
  auto errors = stub_errors(json(R"({"predicates":[{"bogus":{}}],"responses":[{"is":{}}]})"));
  ASSERT_THAT(messages(errors), ElementsAre("missing predicate"));
  EXPECT_EQ(errors[0].code, "bad data");
  EXPECT_EQ(errors[0].source, json(R"({"bogus":{}})"));

  errors = stub_errors(json(R"({"predicates":[{"caseSensitive":true}],"responses":[{"is":{}}]})"));
  EXPECT_EQ(errors.at(0).source, json(R"({"caseSensitive":true})"));

  // Nested: the innermost offender is the source.
  errors = stub_errors(json(R"({"predicates":[{"not":{"or":[{"equals":{}},{"nope":1}]}}],
                                "responses":[{"is":{}}]})"));
  ASSERT_THAT(messages(errors), ElementsAre("missing predicate"));
  EXPECT_EQ(errors[0].source, json(R"({"nope":1})"));

  errors = stub_errors(json(R"({"predicates":[{"not":"x"}],"responses":[{"is":{}}]})"));
  ASSERT_THAT(messages(errors), ElementsAre("missing predicate"));
  EXPECT_EQ(errors[0].source, "x");
}

TEST(PredicateParser, PredicateErrorsComeBeforeResponseErrors) {
  const auto errors = stub_errors(json(R"({"predicates":[{"bogus":1}],"responses":[{}]})"));
  EXPECT_THAT(messages(errors), ElementsAre("missing predicate"));
}

TEST(PredicateParser, CompilerChecksRunOnParsedPredicates) {
  auto errors = stub_errors(
      json(R"({"predicates":[{"equals":{"body":"x"},"xpath":{"selector":"=*INVALID*="}}],
                                     "responses":[{"is":{}}]})"));
  EXPECT_THAT(messages(errors), ElementsAre("malformed xpath predicate selector"));

  errors = stub_errors(
      json(R"({"predicates":[{"matches":{"path":"(unclosed"}}],"responses":[{"is":{}}]})"));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].code, "bad data");
}

TEST(PredicateParser, SelectorsNeedASelector) {
  EXPECT_EQ(stub_errors(json(R"({"predicates":[{"equals":{"body":"x"},"jsonpath":{}}],
                                 "responses":[{"is":{}}]})"))
                .size(),
            1u);
  EXPECT_EQ(stub_errors(json(R"({"predicates":[{"equals":{"body":"x"},"xpath":"//a"}],
                                 "responses":[{"is":{}}]})"))
                .size(),
            1u);
}

TEST(PredicateParser, ValidStubHasTypedPredicates) {
  auto result =
      parse_stub(json(R"({"predicates":[{"deepEquals":{"query":{}}},{"exists":{"body":false}}],
                                    "responses":[{"is":{}}]})"),
                 {});
  ASSERT_TRUE(std::holds_alternative<ir::Stub>(result));
  const auto& stub = std::get<ir::Stub>(result);
  ASSERT_EQ(stub.predicates.size(), 2u);
  EXPECT_EQ(stub.predicates[0].op, ir::Op::kDeepEquals);
  EXPECT_EQ(stub.predicates[1].op, ir::Op::kExists);
  EXPECT_THAT(stub_errors(json(R"({"predicates":[],"responses":[{"is":{}}]})")), IsEmpty());
}

}  // namespace
}  // namespace rift::frontends
