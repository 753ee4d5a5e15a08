// decorate and wait functions as pipeline steps, through the real script engine, mixed with the
// other behaviors in array order.
#include "runtime/behaviors/script_steps.h"

#include <gtest/gtest.h>

#include <future>

#include "runtime/behaviors/pipeline.h"
#include "runtime/behaviors/services.h"

namespace rift::behaviors {
namespace {

std::vector<ir::Behavior> behaviors_from(const char* json) {
  std::vector<ir::Behavior> out;
  for (const auto& behavior : ir::Json::parse(json)) {
    for (const auto& [key, config] : behavior.items()) {
      const auto kind = key == "decorate" ? ir::BehaviorKind::kDecorate
                        : key == "copy"   ? ir::BehaviorKind::kCopy
                                          : ir::BehaviorKind::kWait;
      out.push_back(ir::Behavior{kind, config});
    }
  }
  return out;
}

class ScriptStepsTest : public ::testing::Test {
 protected:
  Outcome run(const char* behaviors, const char* response, bool with_scripts = true) {
    auto pipeline = Pipeline::prepare(behaviors_from(behaviors));
    StepContext context;
    context.request = std::make_shared<const ir::Json>(
        ir::Json{{"method", "GET"}, {"path", "/p"}, {"query", ir::Json::object()}});
    context.services = std::make_shared<Services>();
    // Non-owning: the fixture outlives every call.
    if (with_scripts)
      context.scripts =
          std::shared_ptr<const script::ImposterScripts>(std::shared_ptr<void>(), &scripts_);
    std::promise<Outcome> answer;
    pipeline->run(std::move(context), ir::Json::parse(response),
                  [&answer](Outcome outcome) { answer.set_value(std::move(outcome)); });
    return answer.get_future().get();
  }

  script::Engine engine_{script::EngineSettings{std::chrono::milliseconds(2000)}};
  script::ImposterScripts scripts_{engine_.handle(), "[http:1]"};
};

TEST_F(ScriptStepsTest, StepsRunInArrayOrderAndWaitsAddUp) {
  const Outcome outcome = run(R"J([
    {"wait": 5},
    {"copy": {"from": "path", "into": "${p}", "using": {"method": "regex", "selector": ".*"}}},
    {"decorate": "(config) => { config.response.body += '!'; }"},
    {"wait": "() => 20"}, {"wait": "7"}])J",
                              R"J({"body": "${p}"})J");
  ASSERT_TRUE(std::holds_alternative<Flow>(outcome));
  const Flow& flow = std::get<Flow>(outcome);
  EXPECT_EQ(flow.response, ir::Json::parse(R"J({"body":"/p!"})J"));
  EXPECT_EQ(flow.delay, std::chrono::milliseconds(32));
}

TEST_F(ScriptStepsTest, DecorateMayReturnAReplacement) {
  const Outcome outcome = run(R"J([{"decorate": "() => ({statusCode: 201})"}])J", "{}");
  ASSERT_TRUE(std::holds_alternative<Flow>(outcome));
  EXPECT_EQ(std::get<Flow>(outcome).response, ir::Json::parse(R"J({"statusCode":201})J"));
}

TEST_F(ScriptStepsTest, DecorateSeesTheResponseBeforeDefaults) {
  const Outcome outcome =
      run(R"J([{"decorate": "(c, r) => { r.headers.X = 1; }"}])J", R"J({"body": "x"})J");
  ASSERT_TRUE(std::holds_alternative<MbError>(outcome));
  EXPECT_EQ(std::get<MbError>(outcome).code, "invalid injection");
  EXPECT_EQ(std::get<MbError>(outcome).message, "invalid decorator injection");
  EXPECT_EQ(std::get<MbError>(outcome).data, "r.headers is undefined");
}

TEST_F(ScriptStepsTest, AFailedStepStopsThePipeline) {
  const Outcome outcome =
      run(R"J([{"wait": "() => nope()"}, {"decorate": "(c) => { c.response.body = 'late'; }"}])J",
          "{}");
  ASSERT_TRUE(std::holds_alternative<MbError>(outcome));
  EXPECT_EQ(std::get<MbError>(outcome).message, "invalid wait injection");
}

TEST_F(ScriptStepsTest, WithoutInjectionTheScriptStepsAnswerMountebanksError) {
  const Outcome outcome = run(R"J([{"decorate": "(c) => {}"}])J", "{}", /*with_scripts=*/false);
  ASSERT_TRUE(std::holds_alternative<MbError>(outcome));
  EXPECT_EQ(std::get<MbError>(outcome).code, "invalid injection");
}

TEST(ScriptSteps, OnlyNonNumericWaitsAndOtherBehaviorsNeedThePipeline) {
  ir::Response response;
  response.behaviors = behaviors_from(R"J([{"wait": 100}, {"wait": "100"}])J");
  EXPECT_FALSE(needs_pipeline(response));
  response.behaviors = behaviors_from(R"J([{"wait": "() => 1"}])J");
  EXPECT_TRUE(needs_pipeline(response));
  response.behaviors = behaviors_from(R"J([{"decorate": "() => {}"}])J");
  EXPECT_TRUE(needs_pipeline(response));
}

}  // namespace
}  // namespace rift::behaviors
