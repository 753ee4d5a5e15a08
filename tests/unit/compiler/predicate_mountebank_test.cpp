// Edge cases checked against live Mountebank 2.9.1 (models/predicates.js).
#include <gtest/gtest.h>

#include "compiler/predicate_json.h"
#include "compiler/validate.h"
#include "predicate_test_util.h"

namespace rift {
namespace {

using testing::body_holds;
using testing::holds;

TEST(PredicateMountebank, JsonPathSelectionSortsOnlyTheTopArray) {
  const char* predicate = R"J({"deepEquals":{"body":{"arr":[1,2]}},"jsonpath":{"selector":"$"}})J";
  EXPECT_FALSE(body_holds(predicate, R"J({"arr":[2,1]})J"));
  EXPECT_TRUE(body_holds(predicate, R"J({"arr":[1,2]})J"));
}

TEST(PredicateMountebank, MatchesExceptIsCaseSensitive) {
  EXPECT_FALSE(body_holds(R"J({"matches":{"body":"^b$"},"except":"A"})J", "ab"));
  EXPECT_TRUE(body_holds(R"J({"matches":{"body":"^b$"},"except":"a"})J", "ab"));
}

TEST(PredicateMountebank, JsonPathFilter) {
  EXPECT_TRUE(body_holds(
      R"J({"equals":{"body":"x"},"jsonpath":{"selector":"$.items[?(@.id == 2)].name"}})J",
      R"J({"items":[{"id":1,"name":"y"},{"id":2,"name":"X"}]})J"));
}

TEST(PredicateMountebank, XPathValues) {
  EXPECT_TRUE(body_holds(R"J({"equals":{"body":"7"},"xpath":{"selector":"//a/@id"}})J",
                         R"J(<r><a id="7"/></r>)J"));
  EXPECT_TRUE(body_holds(R"J({"equals":{"body":"undefined"},"xpath":{"selector":"//a"}})J",
                         "<r><a><b/></a></r>"));
  EXPECT_TRUE(body_holds(R"J({"deepEquals":{"body":["b","a"]},"xpath":{"selector":"//a"}})J",
                         "<r><a>A</a><a>B</a></r>"));
  // count() gives a number, which deepEquals (forcing expected to strings) never equals.
  EXPECT_FALSE(body_holds(R"J({"deepEquals":{"body":2},"xpath":{"selector":"count(//x)"}})J",
                          "<a><x/><x/></a>"));
  EXPECT_FALSE(body_holds(R"J({"equals":{"body":0},"xpath":{"selector":"count(//x)"}})J", ""));
}

TEST(PredicateMountebank, ScalarsCompareAsStrings) {
  EXPECT_TRUE(body_holds(R"J({"deepEquals":{"body":"value"},"jsonpath":{"selector":"$.a"}})J",
                         R"J({"a":"VALUE"})J"));
  EXPECT_TRUE(body_holds(R"J({"deepEquals":{"body":{"a":1}}})J", R"J({"A":"1"})J"));
  EXPECT_TRUE(body_holds(R"J({"equals":{"body":{"a":"1,2"}}})J", R"J({"a":[[1,2]]})J"));
  EXPECT_TRUE(
      body_holds(R"J({"equals":{"body":{"n":1e21}}})J", R"J({"n":1000000000000000000000})J"));
  EXPECT_FALSE(body_holds(R"J({"equals":{"body":"0.0000001"},"jsonpath":{"selector":"$.n"}})J",
                          R"J({"n":1e-7})J"));
  EXPECT_TRUE(body_holds(R"J({"equals":{"body":"1e-7"},"jsonpath":{"selector":"$.n"}})J",
                         R"J({"n":1e-7})J"));
  EXPECT_TRUE(body_holds(R"J({"equals":{"body":{"a":true}}})J", R"J({"a":"TRUE"})J"));
  EXPECT_FALSE(
      body_holds(R"J({"equals":{"body":{"a":true}},"caseSensitive":true})J", R"J({"a":"TRUE"})J"));
  EXPECT_TRUE(body_holds(R"J({"contains":{"body":23}})J", "x23y"));
  EXPECT_TRUE(body_holds(R"J({"startsWith":{"body":{"n":"1"}}})J", R"J({"n":12})J"));
}

TEST(PredicateMountebank, ExistsOnRepeatedKeys) {
  Request request;
  request.method = "GET";
  request.path = "/";
  request.query = {{"a", "1"}, {"a", "2"}};
  EXPECT_TRUE(holds(R"J({"exists":{"query":{"a":true}}})J", request));
  EXPECT_FALSE(holds(R"J({"exists":{"query":{"a":false}}})J", request));
}

TEST(PredicateMountebank, ExceptAppliesToExpectedValues) {
  EXPECT_TRUE(body_holds(R"J({"equals":{"body":"a1b"},"except":"\\d"})J", "ab"));
  EXPECT_TRUE(body_holds(R"J({"deepEquals":{"body":"A1B"},"except":"\\d"})J", "a2b"));
}

TEST(PredicateMountebank, MissingBodyAndFields) {
  Request request = testing::request_with_body("");
  request.body.reset();
  EXPECT_TRUE(holds(R"J({"exists":{"body":false}})J", request));
  EXPECT_FALSE(holds(R"J({"exists":{"body":true}})J", request));
  EXPECT_TRUE(holds(R"J({"equals":{"body":{"a":""}}})J", testing::request_with_body("hello")));
  EXPECT_FALSE(holds(R"J({"equals":{"body":{"a":""}}})J", testing::request_with_body("")));
}

TEST(PredicateMountebank, RequestFieldNamesFold) {
  Request request = testing::request_with_body("");
  request.path = "/Test";
  EXPECT_TRUE(holds(R"J({"equals":{"PATH":"/test"}})J", request));
  EXPECT_FALSE(holds(R"J({"equals":{"PATH":"/Test"},"caseSensitive":true})J", request));
  EXPECT_TRUE(holds(R"J({"equals":{"path":"/Test"},"caseSensitive":true})J", request));
  EXPECT_TRUE(holds(R"J({"startsWith":{"path":"/t"}})J", request));
  EXPECT_TRUE(holds(R"J({"endsWith":{"path":"EST"}})J", request));
}

TEST(PredicateMountebank, InjectWithoutAnEngineIsAnInvalidInjection) {
  auto prepared = PreparedPredicate::prepare(
      testing::predicate_from(ir::Json::parse(R"J({"inject":"() => true"})J")));
  ASSERT_EQ(prepared.index(), 0u);
  Request request = testing::request_with_body("");
  RequestContext context(request);
  try {
    (void)std::get<PreparedPredicate>(prepared).evaluate(context);
    FAIL() << "expected EvalError";
  } catch (const EvalError& error) {
    EXPECT_EQ(error.error().code, "invalid injection");
    EXPECT_EQ(error.error().message, "invalid predicate injection: no JavaScript engine here");
  }
  ir::Stub stub;
  stub.predicates.push_back(std::get<PreparedPredicate>(prepared).source());
  EXPECT_TRUE(validate_predicates(stub).empty());
}

// Answers from a fixed table and remembers what it was asked, standing in for the engine.
class TableInjector : public PredicateInjector {
 public:
  bool holds(const std::string& source, const ir::Json& request) const override {
    asked.push_back(source + " " + request.value("path", ""));
    return source == "yes";
  }
  mutable std::vector<std::string> asked;
};

TEST(PredicateMountebank, InjectAsksTheInjectorInsideCombinators) {
  TableInjector injector;
  Request request = testing::request_with_body("");
  request.path = "/p";
  const auto holds_with = [&](const char* json) {
    auto prepared = PreparedPredicate::prepare(testing::predicate_from(ir::Json::parse(json)));
    RequestContext context(request);
    context.set_injector(&injector);
    return std::get<PreparedPredicate>(prepared).evaluate(context);
  };
  EXPECT_TRUE(holds_with(R"J({"inject":"yes"})J"));
  EXPECT_FALSE(holds_with(R"J({"inject":"no"})J"));
  EXPECT_TRUE(holds_with(R"J({"not":{"inject":"no"}})J"));
  EXPECT_TRUE(holds_with(R"J({"or":[{"inject":"no"},{"inject":"yes"}]})J"));
  EXPECT_FALSE(holds_with(R"J({"and":[{"inject":"no"},{"inject":"yes"}]})J"));
  // `and` stops at the first false child, as Mountebank's Array.every does.
  EXPECT_EQ(injector.asked,
            (std::vector<std::string>{"yes /p", "no /p", "no /p", "no /p", "yes /p", "no /p"}));
}

TEST(PredicateMountebank, InvalidRegexIsBadData) {
  for (const char* json :
       {R"J({"matches":{"body":"(a"}})J", R"J({"equals":{"body":"a"},"except":"[a"})J",
        R"J({"not":{"matches":{"body":"(?i)a"}}})J"}) {
    auto predicate = testing::predicate_from(ir::Json::parse(json));
    auto prepared = PreparedPredicate::prepare(predicate);
    ASSERT_EQ(prepared.index(), 1u) << json;
    EXPECT_EQ(std::get<MbError>(prepared).code, "bad data");
    ir::Stub stub;
    stub.predicates.push_back(predicate);
    EXPECT_EQ(validate_predicates(stub).size(), 1u);
  }
  auto prepared = PreparedPredicate::prepare(testing::predicate_from(
      ir::Json::parse(R"J({"matches":{"body":"(a"},"caseSensitive":true})J")));
  ASSERT_EQ(prepared.index(), 1u);
  EXPECT_EQ(std::get<MbError>(prepared).source,
            ir::Json::parse(R"J({"matches":{"body":"(a"},"caseSensitive":true})J"));
}

TEST(PredicateMountebank, MalformedXPathSourceIsTheSelector) {
  auto prepared = PreparedPredicate::prepare(testing::predicate_from(
      ir::Json::parse(R"J({"exists":{"body":true},"xpath":{"selector":"=*INVALID*="}})J")));
  ASSERT_EQ(prepared.index(), 1u);
  EXPECT_EQ(std::get<MbError>(prepared).to_json(),
            ir::Json::parse(R"J({"code":"bad data","message":"malformed xpath predicate selector",
                                 "source":"=*invalid*="})J"));
}

TEST(PredicateJson, OnlySetModifiers) {
  const auto json = ir::Json::parse(
      R"J({"equals":{"body":"x"},"caseSensitive":true,"except":"\\d","xpath":{"selector":"//a","ns":{"p":"u"}}})J");
  EXPECT_EQ(predicate_to_json(testing::predicate_from(json)), json);
  const auto nested =
      ir::Json::parse(R"J({"or":[{"not":{"equals":{"path":"/"}}},{"inject":"f"}]})J");
  EXPECT_EQ(predicate_to_json(testing::predicate_from(nested)), nested);
}

}  // namespace
}  // namespace rift
