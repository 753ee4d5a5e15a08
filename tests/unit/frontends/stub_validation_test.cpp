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

constexpr const char* kJsMessage =
    "JavaScript injection is not allowed unless mb is run with the --allowInjection flag";
constexpr const char* kShellMessage =
    "Shell execution is not allowed unless mb is run with the --allowInjection flag";

TEST(StubValidation, ResponsesMustBeANonEmptyArray) {
  for (const char* stub : {R"({})", R"({"responses":[]})", R"({"responses":{}})",
                           R"({"responses":"x","predicates":[{"bogus":1}]})"}) {
    const auto errors = stub_errors(json(stub));
    ASSERT_THAT(messages(errors), ElementsAre("'responses' must be a non-empty array")) << stub;
    EXPECT_EQ(errors[0].code, "bad data");
    EXPECT_EQ(errors[0].source, json(stub));
  }
}

TEST(StubValidation, JavaScriptInjectionIsGated) {
  for (const char* stub : {
           R"({"responses":[{"inject":"() => 1"}]})",
           R"({"responses":[{"is":{},"behaviors":[{"decorate":"(c, r) => {}"}]}]})",
           R"({"responses":[{"is":{},"behaviors":[{"wait":"() => 10"}]}]})",
           R"({"responses":[{"proxy":{"to":"http://x","predicateGenerators":[{"inject":"f"}]}}]})",
           R"({"responses":[{"proxy":{"to":"http://x","addDecorateBehavior":"f"}}]})",
           R"({"predicates":[{"inject":"() => true"}],"responses":[{"is":{}}]})",
           // Mountebank misses nested injections; Rift refuses them
           // (docs/mountebank-semantics.md §8.1).
           R"({"predicates":[{"not":{"inject":"() => true"}}],"responses":[{"is":{}}]})",
           R"({"predicates":[{"or":[{"and":[{"inject":"f"}]}]}],"responses":[{"is":{}}]})",
       }) {
    const auto errors = stub_errors(json(stub));
    ASSERT_THAT(messages(errors), ElementsAre(kJsMessage)) << stub;
    EXPECT_EQ(errors[0].code, "invalid injection");
    EXPECT_EQ(errors[0].source, json(stub));
    EXPECT_THAT(stub_errors(json(stub), /*allow_injection=*/true), IsEmpty()) << stub;
  }
}

TEST(StubValidation, ShellExecutionIsGated) {
  const ir::Json stub = json(R"({"responses":[{"is":{},"behaviors":[{"shellTransform":"cmd"}]}]})");
  const auto errors = stub_errors(stub);
  ASSERT_THAT(messages(errors), ElementsAre(kShellMessage));
  EXPECT_EQ(errors[0].code, "invalid injection");
  EXPECT_THAT(stub_errors(stub, true), IsEmpty());
}

TEST(StubValidation, BothInjectionErrorsThenBehaviorErrors) {
  const auto errors = stub_errors(json(R"({"responses":[
    {"inject":"f","behaviors":[{"shellTransform":"cmd"},{"wait":-1}]}]})"));
  EXPECT_THAT(
      messages(errors),
      ElementsAre(kJsMessage, kShellMessage,
                  "wait behavior \"wait\" field must be an integer greater than or equal to 0"));
}

TEST(StubValidation, NumericWaitNeedsNoInjection) {
  EXPECT_THAT(stub_errors(json(R"({"responses":[{"is":{},"behaviors":[{"wait":100}]}]})")),
              IsEmpty());
}

TEST(StubValidation, BehaviorSchemaMessages) {
  const auto errors = stub_errors(json(R"({"responses":[{"is":{},"behaviors":[
    {"wait":true},
    {"wait":-1,"copy":"x"},
    {"foo":1,"bar":2},
    {"repeat":2},
    {"copy":{"from":{"a":1,"b":2},"into":5,"using":{"method":"foo"}}},
    {"lookup":{"key":{"from":"x","using":{"method":"regex","selector":"a"}},
               "fromDataSource":{"csv":{}},"into":"${r}"}},
    {"lookup":{"key":"k","fromDataSource":{"sql":{}}}},
    {"shellTransform":1,"decorate":[]}
  ]}]})"),
                                  /*allow_injection=*/true);
  EXPECT_THAT(
      messages(errors),
      ElementsAre(
          "wait behavior \"wait\" field must be a string or a number",
          "wait behavior \"wait\" field must be an integer greater than or equal to 0",
          "copy behavior \"from\" field required", "copy behavior \"into\" field required",
          "copy behavior \"using\" field required",
          "Each behavior object must have only one behavior type", "Unrecognized behavior: \"foo\"",
          "Unrecognized behavior: \"repeat\"",
          "copy behavior \"from\" field must have exactly one key",
          "copy behavior \"into\" field must be a string, representing the token to replace in "
          "response fields",
          "copy behavior \"using.method\" field must be one of [regex, xpath, jsonpath]",
          "copy behavior \"using.selector\" field required",
          "lookup behavior \"fromDataSource.csv.path\" field required",
          "lookup behavior \"fromDataSource.csv.keyColumn\" field required",
          "lookup behavior \"key\" field must be an object",
          "lookup behavior \"fromDataSource\" field must be one of [csv]",
          "lookup behavior \"into\" field required",
          "shellTransform behavior \"shellTransform\" field must be a string, representing the "
          "path to a command line application",
          "decorate behavior \"decorate\" field must be a string, representing a JavaScript "
          "function",
          "Each behavior object must have only one behavior type"));
  EXPECT_EQ(errors[0].source, json(R"({"wait":true})"));
  EXPECT_EQ(errors[6].source, json(R"({"foo":1,"bar":2})"));
}

TEST(StubValidation, ValidBehaviorsReachTheIr) {
  auto result = parse_stub(json(R"({"responses":[{"is":{},"repeat":"3","behaviors":[
    {"wait":10,"note":"extra keys are tolerated"},
    {"copy":{"from":"path","into":"${p}","using":{"method":"regex","selector":".*"}}},
    {}]}]})"),
                           {});
  ASSERT_TRUE(std::holds_alternative<ir::Stub>(result));
  const auto& response = std::get<ir::Stub>(result).responses.at(0);
  EXPECT_EQ(response.repeat, 3);
  ASSERT_EQ(response.behaviors.size(), 2u);
  EXPECT_EQ(response.behaviors[0], (ir::Behavior{ir::BehaviorKind::kWait, 10}));
  EXPECT_EQ(response.behaviors[1].kind, ir::BehaviorKind::kCopy);
  EXPECT_EQ(response.behaviors[1].config["into"], "${p}");
}

TEST(StubValidation, RepeatMustBePositive) {
  const auto errors = stub_errors(json(R"({"responses":[
    {"is":{},"repeat":0},{"is":{},"repeat":-2},{"is":{},"repeat":true},{"is":{},"repeat":{}},
    {"is":{},"repeat":"0"},{"is":{},"repeat":null},{"is":{},"repeat":2},{"is":{},"repeat":"2"}]})"));
  ASSERT_EQ(errors.size(), 6u);
  for (const auto& error : errors) {
    EXPECT_EQ(error.message, "\"repeat\" field must be an integer greater than 0");
  }
  EXPECT_EQ(errors[0].source, json(R"({"is":{},"repeat":0})"));
  EXPECT_EQ(errors[5].source, json(R"({"is":{},"repeat":null})"));
}

TEST(StubValidation, ResponseTypes) {
  auto errors = stub_errors(json(R"({"responses":[{"is":{}},{"foo":1,"repeat":2}]})"));
  ASSERT_THAT(messages(errors), ElementsAre("unrecognized response type"));
  EXPECT_EQ(errors[0].source, json(R"({"foo":1,"repeat":2})"));

  errors = stub_errors(json(R"({"responses":[{}]})"));
  EXPECT_THAT(messages(errors), ElementsAre("unrecognized response type"));

  errors = stub_errors(json(R"({"responses":[{"is":{"body":"x"},"proxy":{"to":"http://x"}}]})"));
  ASSERT_THAT(messages(errors),
              ElementsAre("each response object must have only one response type"));
  EXPECT_EQ(errors[0].source, json(R"({"is":{"body":"x"},"proxy":{"to":"http://x"}})"));

  errors = stub_errors(json(R"({"responses":[{"fault":"CONNECTION_RESET_BY_PEER","is":{}}]})"));
  EXPECT_THAT(messages(errors),
              ElementsAre("each response object must have only one response type"));

  // Falsy type keys do not count, as in Mountebank.
  EXPECT_THAT(stub_errors(json(R"({"responses":[{"is":null,"fault":"X"}]})")), IsEmpty());
}

TEST(StubValidation, OnlyTheFirstDryRunErrorOfAStubIsReported) {
  const auto errors = stub_errors(json(R"({"responses":[{},{"proxy":{}}]})"));
  EXPECT_THAT(messages(errors), ElementsAre("unrecognized response type"));
}

TEST(StubValidation, ProxyTo) {
  const ir::Json missing = json(R"({"responses":[{"proxy":{}}]})");
  auto errors = stub_errors(missing);
  ASSERT_THAT(messages(errors), ElementsAre("Missing to"));
  // Errors raised without a source are labelled with the serialized stub, like Mountebank.
  EXPECT_EQ(errors[0].source, ir::Json(missing.dump()));

  errors = stub_errors(json(R"({"responses":[{"proxy":{"to":"http://x/p?q=1"}}]})"));
  EXPECT_THAT(messages(errors), ElementsAre("proxy.to must not contain a path '/p'"));

  errors = stub_errors(json(R"({"responses":[{"proxy":{"to":"https://host:8443/a/b/"}}]})"));
  EXPECT_THAT(messages(errors), ElementsAre("proxy.to must not contain a path '/a/b/'"));

  for (const char* bad : {"abc", "http://", "http://x:99999", ""}) {
    ir::Json stub = json(R"({"responses":[{"proxy":{}}]})");
    stub["responses"][0]["proxy"]["to"] = bad;
    errors = stub_errors(stub);
    ASSERT_EQ(errors.size(), 1u) << bad;
    EXPECT_EQ(errors[0].code, "bad data");
    EXPECT_EQ(errors[0].message, std::string("Invalid URL: ") + bad);
  }

  for (const char* good :
       {"http://x", "http://x/", "https://origin:8443", "http://x/?q=1", "tcp://host:1/path"}) {
    ir::Json stub = json(R"({"responses":[{"proxy":{"mode":"proxyAlways"}}]})");
    stub["responses"][0]["proxy"]["to"] = good;
    EXPECT_THAT(stub_errors(stub), IsEmpty()) << good;
  }
}

TEST(StubValidation, AcceptedButUnservedResponsesStayInTheIr) {
  auto result = parse_stub(json(R"({"responses":[
    {"proxy":{"to":"http://origin:8080","mode":"proxyOnce"}},
    {"inject":"() => 1"},
    {"fault":"RANDOM_DATA_THEN_CLOSE"},
    {"is":{"statusCode":201},"repeat":2}]
})"),
                           ParseOptions{true});
  ASSERT_TRUE(std::holds_alternative<ir::Stub>(result));
  const auto& responses = std::get<ir::Stub>(result).responses;
  ASSERT_EQ(responses.size(), 4u);
  EXPECT_EQ(responses[0].kind, ir::ResponseKind::kProxy);
  EXPECT_EQ(responses[0].value["to"], "http://origin:8080");
  EXPECT_EQ(responses[1].kind, ir::ResponseKind::kInject);
  EXPECT_EQ(responses[1].value, "() => 1");
  EXPECT_EQ(responses[2].kind, ir::ResponseKind::kFault);
  EXPECT_EQ(responses[2].value, "RANDOM_DATA_THEN_CLOSE");
  EXPECT_EQ(responses[3].kind, ir::ResponseKind::kIs);
  EXPECT_EQ(responses[3].repeat, 2);
}

}  // namespace
}  // namespace rift::frontends
