// inject -> behaviors (decorate, wait) through the real script engine, as the imposter runs them.
#include "runtime/scripted_response.h"

#include <gtest/gtest.h>

#include <future>

namespace rift {
namespace {

ir::Response response_from(const char* json) {
  const ir::Json value = ir::Json::parse(json);
  ir::Response out;
  if (value.contains("inject")) {
    out.kind = ir::ResponseKind::kInject;
    out.value = value["inject"];
  } else {
    out.value = value.value("is", ir::Json::object());
  }
  for (const auto& behavior : value.value("behaviors", ir::Json::array())) {
    for (const auto& [key, config] : behavior.items()) {
      out.behaviors.push_back(ir::Behavior{
          key == "decorate" ? ir::BehaviorKind::kDecorate : ir::BehaviorKind::kWait, config});
    }
  }
  return out;
}

class ScriptedResponseTest : public ::testing::Test {
 protected:
  std::variant<ScriptedResponse, MbError> resolve(const ir::Response& response) {
    std::promise<std::variant<ScriptedResponse, MbError>> answer;
    resolve_scripted(scripts_, response, ir::Json{{"method", "GET"}, {"path", "/p"}},
                     [&answer](std::variant<ScriptedResponse, MbError> result) {
                       answer.set_value(std::move(result));
                     });
    return answer.get_future().get();
  }

  script::Engine engine_{script::EngineSettings{std::chrono::milliseconds(2000)}};
  script::ImposterScripts scripts_{engine_.handle(), "[http:1]"};
};

TEST_F(ScriptedResponseTest, InjectThenDecorateThenWaits) {
  const ir::Response response = response_from(R"J({
    "inject": "config => ({ body: config.request.path })",
    "behaviors": [{"wait": 5}, {"decorate": "(config, response) => { response.body += '!'; }"},
                  {"wait": "() => 20"}, {"wait": "7"}]})J");
  ASSERT_TRUE(needs_scripts(response));
  auto result = resolve(response);
  ASSERT_TRUE(std::holds_alternative<ScriptedResponse>(result));
  const auto& answer = std::get<ScriptedResponse>(result);
  EXPECT_EQ(answer.response, ir::Json::parse(R"J({"body":"/p!"})J"));
  EXPECT_EQ(answer.delay, std::chrono::milliseconds(32));
}

TEST_F(ScriptedResponseTest, DecorateSeesTheIsResponseBeforeDefaults) {
  const ir::Response response = response_from(
      R"J({"is": {"body": "x"}, "behaviors": [{"decorate": "(c, r) => { r.headers.X = 1; }"}]})J");
  auto result = resolve(response);
  ASSERT_TRUE(std::holds_alternative<MbError>(result));
  EXPECT_EQ(std::get<MbError>(result).code, "invalid injection");
  EXPECT_EQ(std::get<MbError>(result).message, "invalid decorator injection");
  EXPECT_EQ(std::get<MbError>(result).data, "r.headers is undefined");
}

TEST_F(ScriptedResponseTest, ErrorsNameTheirKind) {
  auto result = resolve(response_from(R"J({"inject": "() => { throw new Error('x'); }"})J"));
  ASSERT_TRUE(std::holds_alternative<MbError>(result));
  EXPECT_EQ(std::get<MbError>(result).message, "invalid response injection");
  EXPECT_EQ(std::get<MbError>(result).source, ir::Json("() => { throw new Error('x'); }"));
  result = resolve(response_from(R"J({"is": {}, "behaviors": [{"wait": "() => nope()"}]})J"));
  ASSERT_TRUE(std::holds_alternative<MbError>(result));
  EXPECT_EQ(std::get<MbError>(result).message, "invalid wait injection");
}

TEST(ScriptedResponse, OnlyJavaScriptNeedsTheEngine) {
  EXPECT_FALSE(needs_scripts(response_from(R"J({"is": {}, "behaviors": [{"wait": 100}]})J")));
  EXPECT_FALSE(needs_scripts(response_from(R"J({"is": {}, "behaviors": [{"wait": "100"}]})J")));
  EXPECT_TRUE(needs_scripts(response_from(R"J({"is": {}, "behaviors": [{"wait": "() => 1"}]})J")));
  EXPECT_TRUE(needs_scripts(response_from(R"J({"inject": "() => ({})"})J")));
}

}  // namespace
}  // namespace rift
