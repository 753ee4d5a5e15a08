// The reference Rift's extensions read from admin JSON: a stub's `space` and an imposter's
// `_rift.flowState` (docs/spaces.md).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/scenarios.h"
#include "test_helpers.h"

namespace rift::frontends {
namespace {

using ::testing::ElementsAre;
using testing::imposter_errors;
using testing::json;
using testing::messages;
using testing::stub_errors;

ir::Imposter parsed(const char* text) {
  auto result = parse_imposter(json(text), ParseOptions{});
  EXPECT_EQ(result.index(), 0u) << text;
  return std::get<ir::Imposter>(std::move(result));
}

TEST(RiftBlock, FlowIdSources) {
  EXPECT_FALSE(parsed(R"({"protocol":"http"})").flow_id_source.header);
  EXPECT_FALSE(
      parsed(R"({"protocol":"http","_rift":{"flowState":{"flowIdSource":"imposter_port"}}})")
          .flow_id_source.header);
  const ir::Imposter by_header =
      parsed(R"({"protocol":"http","_rift":{"flowState":{"flowIdSource":"header:X-Flow-Id"}}})");
  EXPECT_EQ(by_header.flow_id_source.header, "X-Flow-Id");
  EXPECT_EQ(by_header.rift, json(R"({"flowState":{"flowIdSource":"header:X-Flow-Id"}})"));
  for (const char* source :
       {R"("Header:X")", R"("header: X")", R"("header:")", R"("port")", R"(7)", R"(null)"}) {
    const std::string body =
        std::string(R"({"protocol":"http","_rift":{"flowState":{"flowIdSource":)") + source + "}}}";
    const auto errors = imposter_errors(json(body.c_str()));
    ASSERT_EQ(errors.size(), 1u) << source;
    EXPECT_EQ(errors[0].code, "bad data");
    EXPECT_NE(errors[0].message.find("flowIdSource"), std::string::npos) << source;
  }
}

TEST(RiftBlock, FlowStoreChecksAreTheReferences) {
  EXPECT_THAT(
      messages(imposter_errors(
          json(R"({"protocol":"http","_rift":{"flowState":{"backend":"etcd","ttlSeconds":0}}})"))),
      ElementsAre("Flow store configuration error: flowState.backend is \"etcd\" but no such "
                  "backend exists (expected \"inmemory\" or \"redis\")",
                  "Flow store configuration error: flowState.ttlSeconds must be >= 1 (got 0); a "
                  "non-positive TTL would expire every write immediately"));
  EXPECT_THAT(messages(imposter_errors(json(R"({"protocol":"http","_rift":[]})"))),
              ElementsAre("'_rift' must be an object"));
  EXPECT_THAT(
      messages(imposter_errors(json(
          R"({"protocol":"http","_rift":{"flowState":{"backend":"redis","ttlSeconds":60}}})"))),
      ElementsAre("Flow store configuration error: flowState.backend is \"redis\" but no redis "
                  "config block was provided"));
  parsed(R"({"protocol":"http","_rift":{"flowState":{"backend":"redis","ttlSeconds":60,
             "redis":{"url":"redis://127.0.0.1:6379"}}}})");
}

TEST(RiftBlock, StubSpaces) {
  auto stub = parse_stub(json(R"({"space":"team-a","responses":[{"is":{}}]})"), ParseOptions{});
  ASSERT_EQ(stub.index(), 0u);
  EXPECT_EQ(std::get<ir::Stub>(stub).space, "team-a");
  EXPECT_EQ(std::get<ir::Stub>(stub).source["space"], "team-a");  // echoed as given
  auto global = parse_stub(json(R"({"responses":[{"is":{}}]})"), ParseOptions{});
  EXPECT_FALSE(std::get<ir::Stub>(global).space);
  EXPECT_THAT(messages(stub_errors(json(R"({"space":1,"responses":[{"is":{}}]})"))),
              ElementsAre("'space' must be a string"));
  EXPECT_THAT(messages(stub_errors(json(R"({"space":"a\u0007b","responses":[{"is":{}}]})"))),
              ElementsAre("a space id may not contain control characters"));
  // Any other text is an id, the empty one too.
  EXPECT_EQ(std::get<ir::Stub>(
                parse_stub(json(R"({"space":"","responses":[{"is":{}}]})"), ParseOptions{}))
                .space,
            "");
}

TEST(RiftBlock, StubScenarios) {
  auto parsed_stub = parse_stub(json(R"({"scenarioName":"checkout","requiredScenarioState":"Paid",
      "newScenarioState":"Shipped","predicates":[{"equals":{"path":"/x"}}],
      "responses":[{"is":{}}]})"),
                                ParseOptions{});
  ASSERT_EQ(parsed_stub.index(), 0u);
  const ir::Stub& stub = std::get<ir::Stub>(parsed_stub);
  EXPECT_EQ(stub.scenario_name, "checkout");
  EXPECT_EQ(stub.required_scenario_state, "Paid");
  EXPECT_EQ(stub.new_scenario_state, "Shipped");
  // The gate goes first, so every matcher checks it before the stub's own predicates.
  ASSERT_EQ(stub.predicates.size(), 2u);
  EXPECT_EQ(stub.predicates[0], scenario_gate("checkout", "Paid"));
  EXPECT_EQ(stub.predicates[1].op, ir::Op::kEquals);
  EXPECT_EQ(stub.source["requiredScenarioState"], "Paid");  // echoed as given

  // Moving without a gate; a state without a name is the scenario "".
  const ir::Stub mover = std::get<ir::Stub>(
      parse_stub(json(R"({"newScenarioState":"Two","responses":[{"is":{}}]})"), ParseOptions{}));
  EXPECT_TRUE(mover.predicates.empty());
  EXPECT_EQ(mover.scenario_name, "");
  const ir::Stub named = std::get<ir::Stub>(
      parse_stub(json(R"({"scenarioName":"s","responses":[{"is":{}}]})"), ParseOptions{}));
  EXPECT_TRUE(named.predicates.empty());
  EXPECT_FALSE(named.new_scenario_state);

  for (const char* field : {"scenarioName", "requiredScenarioState", "newScenarioState"}) {
    const std::string body = std::string(R"({")") + field + R"(":7,"responses":[{"is":{}}]})";
    EXPECT_THAT(messages(stub_errors(json(body.c_str()))),
                ElementsAre("'" + std::string(field) + "' must be a string"));
  }
}

TEST(RiftBlock, StubIdsAreStringsAndUnique) {
  const ir::Stub named = std::get<ir::Stub>(
      parse_stub(json(R"({"id":"login","responses":[{"is":{}}]})"), ParseOptions{}));
  EXPECT_EQ(named.id, "login");
  EXPECT_EQ(named.source["id"], "login");
  EXPECT_FALSE(
      std::get<ir::Stub>(parse_stub(json(R"({"id":null,"responses":[{"is":{}}]})"), ParseOptions{}))
          .id);
  EXPECT_THAT(messages(stub_errors(json(R"({"id":5,"responses":[{"is":{}}]})"))),
              ElementsAre("'id' must be a string"));

  const auto errors = imposter_errors(json(R"({"protocol":"http","stubs":[
      {"id":"a","responses":[{"is":{}}]},{"responses":[{"is":{}}]},
      {"id":"a","responses":[{"is":{}}]}]})"));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].code, "resource conflict");
  EXPECT_EQ(errors[0].message, "A stub with id 'a' already exists");
  parsed(R"({"protocol":"http","stubs":[{"id":"a","responses":[{"is":{}}]},
             {"id":"A","responses":[{"is":{}}]},{"responses":[{"is":{}}]}]})");
}

TEST(RiftBlock, ScriptsAreJavaScriptWithOneSource) {
  const auto rhai = messages(stub_errors(
      json(R"x({"responses":[{"_rift":{"script":{"engine":"rhai","code":"http(200)"}}}]})x"),
      true));
  ASSERT_EQ(rhai.size(), 1u);
  EXPECT_NE(rhai[0].find("Rift runs JavaScript scripts, not Rhai"), std::string::npos);
  // Rhai is the reference's default engine; a .js file means JavaScript.
  EXPECT_NE(
      messages(stub_errors(json(R"({"responses":[{"_rift":{"script":{"code":"1"}}}]})"), true))[0]
          .find("not Rhai"),
      std::string::npos);
  EXPECT_THAT(
      messages(stub_errors(
          json(R"({"responses":[{"is":{},"_rift":{"script":{"file":"respond.js"}}}]})"), true)),
      ElementsAre("Script resolution failed: script file 'respond.js' cannot be "
                  "resolved: no --scripts-dir is configured for the admin API"));
  EXPECT_THAT(
      messages(stub_errors(
          json(R"({"responses":[{"_rift":{"script":{"engine":"js","code":"1","ref":"a"}}}]})"),
          true)),
      ElementsAre("Script resolution failed: script config must specify exactly one of "
                  "`code`, `file`, or `ref` (found 2)"));
  // Served: the resolved script is the response.
  const ParseOptions allowed{true};
  const auto stub = std::get<ir::Stub>(parse_stub(
      json(R"x({"responses":[{"_rift":{"script":{"engine":"js","code":"pass()"}}}]})x"), allowed));
  EXPECT_EQ(stub.responses[0].kind, ir::ResponseKind::kScript);
  EXPECT_EQ(stub.responses[0].value, json(R"x({"engine":"js","code":"pass()"})x"));
  // A ref names an entry of the imposter's registry, whose engine counts.
  const ir::Json registry = json(R"x({"greet":{"engine":"javascript","code":"http(200)"}})x");
  const auto by_ref = std::get<ir::Stub>(
      parse_stub(json(R"({"responses":[{"_rift":{"script":{"ref":"greet","engine":"rhai"}}}]})"),
                 ParseOptions{true, &registry}));
  EXPECT_EQ(by_ref.responses[0].value, json(R"x({"engine":"javascript","code":"http(200)"})x"));
  // The gate sees a script anywhere, even next to `is`.
  EXPECT_EQ(stub_errors(json(R"({"responses":[{"is":{},"_rift":{"script":{"engine":"js",
            "code":"1"}}}]})"))[0]
                .code,
            "invalid injection");
  // Other _rift keys are not scripts.
  EXPECT_TRUE(std::holds_alternative<ir::Stub>(
      parse_stub(json(R"({"responses":[{"is":{},"_rift":{"templated":true}}]})"), ParseOptions{})));
}

TEST(RiftBlock, ScriptEngineTimeoutIsWholeMilliseconds) {
  EXPECT_TRUE(parsed(R"({"protocol":"http","_rift":{"scriptEngine":{"timeoutMs":250}}})").rift);
  for (const char* value : {R"("100")", "-1", "1.5", "true"}) {
    const std::string body =
        std::string(R"({"protocol":"http","_rift":{"scriptEngine":{"timeoutMs":)") + value + "}}}";
    EXPECT_THAT(
        messages(imposter_errors(json(body.c_str()))),
        ElementsAre("'_rift.scriptEngine.timeoutMs' must be a whole number of milliseconds"))
        << value;
  }
  EXPECT_THAT(messages(imposter_errors(json(R"({"protocol":"http","_rift":{"scriptEngine":5}})"))),
              ElementsAre("'_rift.scriptEngine' must be an object"));
}

TEST(RiftBlock, Enabled) {
  EXPECT_TRUE(parsed(R"({"protocol":"http"})").enabled);
  EXPECT_FALSE(parsed(R"({"protocol":"http","enabled":false})").enabled);
  EXPECT_TRUE(parsed(R"({"protocol":"http","enabled":true})").enabled);
  for (const char* value : {R"("no")", "0", "null"}) {
    const std::string body = std::string(R"({"protocol":"http","enabled":)") + value + "}";
    EXPECT_THAT(messages(imposter_errors(json(body.c_str()))),
                ElementsAre("'enabled' must be a boolean"))
        << value;
  }
}

}  // namespace
}  // namespace rift::frontends
