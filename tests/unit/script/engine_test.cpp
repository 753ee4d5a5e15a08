// The script engine on its own: Mountebank's calling conventions, the time limit, per-imposter
// state, and the ES2015+ syntax functions written for Mountebank use.
#include "runtime/script/engine.h"

#include <gtest/gtest.h>

#include <future>
#include <mutex>
#include <optional>
#include <vector>

namespace rift::script {
namespace {

ir::Json get_request() {
  return ir::Json::parse(R"({"method":"GET","path":"/test","query":{"key":"value"},
                             "headers":{"Host":"localhost"},"body":""})");
}

class EngineTest : public ::testing::Test {
 protected:
  EngineTest()
      : engine_(EngineSettings{std::chrono::milliseconds(300),
                               [this](LogLevel level, const std::string& message) {
                                 std::lock_guard lock(log_mutex_);
                                 log_.emplace_back(level, message);
                               }}),
        imposter_(engine_.open_imposter("[http:4545]")) {}

  Outcome run(CallKind kind, const std::string& source, ir::Json request = get_request()) {
    return engine_.call_and_wait(kind, imposter_, source, std::move(request));
  }
  static ir::Json value(const Outcome& outcome) {
    if (const auto* error = std::get_if<ScriptError>(&outcome)) {
      ADD_FAILURE() << "script error: " << error->message;
      return nullptr;
    }
    return std::get<ir::Json>(outcome);
  }
  static std::string error(const Outcome& outcome) {
    const auto* failure = std::get_if<ScriptError>(&outcome);
    if (failure == nullptr) {
      ADD_FAILURE() << "expected an error, got " << std::get<ir::Json>(outcome).dump();
      return "";
    }
    return failure->message;
  }
  Outcome decorate(const std::string& source, const ir::Json& response) {
    std::promise<Outcome> answer;
    engine_.call(CallKind::kDecorate, imposter_, source, get_request(), response,
                 [&answer](Outcome outcome) { answer.set_value(std::move(outcome)); });
    return answer.get_future().get();
  }

  std::mutex log_mutex_;
  std::vector<std::pair<LogLevel, std::string>> log_;
  Engine engine_;
  const uint64_t imposter_;
};

TEST_F(EngineTest, PredicateSeesConfigAndLegacyRequestFields) {
  EXPECT_EQ(value(run(CallKind::kPredicate, "config => config.request.path === '/test'")), true);
  EXPECT_EQ(value(run(CallKind::kPredicate, "request => request.path === '/test'")), true);
  EXPECT_EQ(value(run(CallKind::kPredicate, "config => config.query.key === 'other'")), false);
  // Truthiness, not identity with true.
  EXPECT_EQ(value(run(CallKind::kPredicate, "() => 'yes'")), true);
  EXPECT_EQ(value(run(CallKind::kPredicate, "() => 0")), false);
}

TEST_F(EngineTest, SynchronousResponse) {
  EXPECT_EQ(value(run(CallKind::kResponse,
                      "function (request) { return { body: request.method + ' INJECTED' }; }")),
            ir::Json::parse(R"({"body":"GET INJECTED"})"));
}

TEST_F(EngineTest, CallbackResponseAnswersLater) {
  EXPECT_EQ(value(run(CallKind::kResponse,
                      "(config, injectState, logger, callback) => {"
                      "  setTimeout(() => callback({ statusCode: 202 }), 20); }")),
            ir::Json::parse(R"({"statusCode":202})"));
  EXPECT_EQ(value(run(CallKind::kResponse, "config => { config.callback({ body: 'now' }); }")),
            ir::Json::parse(R"({"body":"now"})"));
}

TEST_F(EngineTest, PromisesAreAdopted) {
  EXPECT_EQ(value(run(CallKind::kResponse,
                      "async config => { await null; return { body: config.request.path }; }")),
            ir::Json::parse(R"({"body":"/test"})"));
  EXPECT_EQ(error(run(CallKind::kResponse, "() => Promise.reject(new Error('no'))")), "no");
}

TEST_F(EngineTest, ThrowIsAnErrorWithTheMessageAndIsLogged) {
  EXPECT_EQ(error(run(CallKind::kResponse, "() => { throw new Error('boom'); }")), "boom");
  EXPECT_EQ(error(run(CallKind::kPredicate, "() => undefinedName.x")),
            "undefinedName is not defined");
  std::lock_guard lock(log_mutex_);
  ASSERT_FALSE(log_.empty());
  EXPECT_EQ(log_.front().first, LogLevel::kError);
  EXPECT_EQ(log_.front().second, "[http:4545] injection X=> Error: boom");
}

TEST_F(EngineTest, SyntaxErrorIsAnError) {
  EXPECT_EQ(error(run(CallKind::kResponse, "() => 1 +")), "expected expression, got ')'");
}

TEST_F(EngineTest, RunawayLoopStopsAtTheTimeLimitAndTheEngineGoesOn) {
  EXPECT_EQ(error(run(CallKind::kResponse, "() => { while (true) {} }")),
            "the function ran longer than the time limit of 300 ms");
  EXPECT_EQ(error(run(CallKind::kPredicate, "() => { for (;;) {} }")),
            "the function ran longer than the time limit of 300 ms");
  EXPECT_EQ(value(run(CallKind::kResponse, "() => ({ body: 'still here' })")),
            ir::Json::parse(R"({"body":"still here"})"));
}

TEST_F(EngineTest, CallbackNeverCalledFailsAtTheTimeLimit) {
  EXPECT_EQ(error(run(CallKind::kResponse, "(config, state, logger, callback) => {}")),
            "the function did not answer within the time limit of 300 ms");
}

TEST_F(EngineTest, DeepRecursionIsACatchableError) {
  EXPECT_EQ(error(run(CallKind::kResponse, "function f() { return f(); }")), "too much recursion");
}

TEST_F(EngineTest, StateIsSharedByKindsAndKeptPerImposter) {
  const std::string count =
      "config => { config.state.calls = (config.state.calls || 0) + 1; return config.state.calls > "
      "1; }";
  EXPECT_EQ(value(run(CallKind::kPredicate, count)), false);
  EXPECT_EQ(value(run(CallKind::kPredicate, count)), true);
  EXPECT_EQ(value(run(CallKind::kResponse, "config => ({ body: String(config.state.calls) })")),
            ir::Json::parse(R"({"body":"2"})"));
  // Predicates get the imposter state as their third argument too.
  EXPECT_EQ(value(run(CallKind::kPredicate, "(config, logger, state) => state.calls === 2")), true);
  // Another imposter starts from an empty state.
  const uint64_t other = engine_.open_imposter("[http:4546]");
  EXPECT_EQ(
      value(engine_.call_and_wait(CallKind::kPredicate, other,
                                  "config => config.state.calls === undefined", get_request())),
      true);
  // The legacy injectState is separate from state, and also kept.
  const std::string legacy =
      "(request, injectState) => { injectState.n = (injectState.n || 0) + 1; return { body: "
      "String(injectState.n) }; }";
  EXPECT_EQ(value(run(CallKind::kResponse, legacy)), ir::Json::parse(R"({"body":"1"})"));
  EXPECT_EQ(value(run(CallKind::kResponse, legacy)), ir::Json::parse(R"({"body":"2"})"));
}

TEST_F(EngineTest, ClosingAnImposterDropsItsState) {
  const uint64_t other = engine_.open_imposter("[http:1]");
  const std::string set = "config => { config.state.x = 1; return true; }";
  EXPECT_EQ(value(engine_.call_and_wait(CallKind::kPredicate, other, set, get_request())), true);
  EXPECT_EQ(value(engine_.call_and_wait(CallKind::kPredicate, other, "c => c.state.x === 1",
                                        get_request())),
            true);
  engine_.close_imposter(other);
  EXPECT_EQ(error(engine_.call_and_wait(CallKind::kPredicate, other, "c => c.state.x === 1",
                                        get_request())),
            "the imposter has been deleted");
}

TEST_F(EngineTest, Es2015Syntax) {
  EXPECT_EQ(
      value(
          run(CallKind::kResponse,
              "({ request: { method, query: { key } } }) => {"
              "  const [first, ...rest] = [1, 2, 3];"
              "  class Greeting { constructor(who) { this.who = who; } toString() { return `hi "
              "${this.who}`; } }"
              "  return { body: `${method} ${key} ${first}+${rest.length} ${new Greeting('you')}`,"
              "           headers: { ...{ 'X-Spread': 'yes' } } };"
              "}")),
      ir::Json::parse(R"({"body":"GET value 1+2 hi you","headers":{"X-Spread":"yes"}})"));
  EXPECT_EQ(value(run(CallKind::kPredicate,
                      "config => new Map([['a', 1]]).get('a') === 1 && [1, 2].includes(2)")),
            true);
}

TEST_F(EngineTest, LoggerWritesToTheLog) {
  EXPECT_EQ(value(run(CallKind::kPredicate,
                      "(config, logger) => { logger.debug('d'); logger.info('i', { a: 1 });"
                      " logger.warn('w'); config.logger.error('e'); return true; }")),
            true);
  std::lock_guard lock(log_mutex_);
  EXPECT_EQ(log_, (std::vector<std::pair<LogLevel, std::string>>{
                      {LogLevel::kDebug, "[http:4545] d"},
                      {LogLevel::kInfo, "[http:4545] i {\"a\":1}"},
                      {LogLevel::kWarn, "[http:4545] w"},
                      {LogLevel::kError, "[http:4545] e"}}));
}

TEST_F(EngineTest, GeneratorReturnsItsPredicatesSpread) {
  EXPECT_EQ(
      value(run(CallKind::kGenerator, "config => [{ equals: { path: config.request.path } }]")),
      ir::Json::parse(R"([{"equals":{"path":"/test"}}])"));
  // Mountebank spreads the result: anything not iterable is an error.
  EXPECT_NE(error(run(CallKind::kGenerator, "() => 42")), "");
}

TEST_F(EngineTest, DecorateMutatesOrReplaces) {
  const ir::Json response = ir::Json::parse(R"({"statusCode":201,"headers":{}})");
  EXPECT_EQ(value(decorate("(config, response) => { response.headers.X = config.request.path; }",
                           response)),
            ir::Json::parse(R"({"statusCode":201,"headers":{"X":"/test"}})"));
  EXPECT_EQ(value(decorate("config => ({ body: config.response.statusCode + '!' })", response)),
            ir::Json::parse(R"({"body":"201!"})"));
  EXPECT_EQ(error(decorate("(config, response) => { response.nothing.x = 1; }", response)),
            "response.nothing is undefined");
}

TEST_F(EngineTest, WaitFunctionReturnsMilliseconds) {
  EXPECT_EQ(value(run(CallKind::kWait, "() => 1000")), 1000);
  EXPECT_EQ(value(run(CallKind::kWait, "function () { return 5 * 2; }")), 10);
}

TEST_F(EngineTest, NonUtf8RequestBodiesArrive) {
  ir::Json request = get_request();
  request["body"] = std::string(
      "a\xff"
      "b");
  EXPECT_EQ(value(run(CallKind::kResponse, "config => ({ body: config.request.body })", request)),
            ir::Json::parse(R"({"body":"a\ufffdb"})"));
}

TEST(EngineLifetime, StoppingFailsWhatIsStillWaiting) {
  std::promise<Outcome> answer;
  {
    Engine engine(EngineSettings{std::chrono::milliseconds(60000)});
    const uint64_t imposter = engine.open_imposter("[http:1]");
    engine.call(CallKind::kResponse, imposter, "(c, s, l, callback) => {}", ir::Json::object(),
                ir::Json(), [&answer](Outcome outcome) { answer.set_value(std::move(outcome)); });
    // Make sure the call was taken up before the engine stops.
    EXPECT_EQ(std::get<ir::Json>(
                  engine.call_and_wait(CallKind::kWait, imposter, "() => 1", ir::Json::object())),
              1);
  }
  Outcome outcome = answer.get_future().get();
  ASSERT_TRUE(std::holds_alternative<ScriptError>(outcome));
  EXPECT_EQ(std::get<ScriptError>(outcome).message, "the JavaScript engine has stopped");
}

TEST(EngineLifetime, AHandleOutlivesTheEngineSafely) {
  std::optional<EngineHandle> handle;
  uint64_t imposter = 0;
  {
    Engine engine(EngineSettings{std::chrono::milliseconds(1000)});
    handle = engine.handle();
    imposter = handle->open_imposter("[http:1]");
    EXPECT_EQ(std::get<ir::Json>(
                  handle->call_and_wait(CallKind::kWait, imposter, "() => 2", ir::Json::object())),
              2);
  }
  // An imposter released after the engine stopped (shutdown) still closes and calls cleanly.
  handle->close_imposter(imposter);
  Outcome outcome = handle->call_and_wait(CallKind::kWait, imposter, "() => 3", ir::Json::object());
  ASSERT_TRUE(std::holds_alternative<ScriptError>(outcome));
  EXPECT_EQ(std::get<ScriptError>(outcome).message, "the JavaScript engine has stopped");
}

}  // namespace
}  // namespace rift::script
