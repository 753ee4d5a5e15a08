#include "runtime/behaviors/pipeline.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <future>

#include "runtime/behaviors/services.h"
#include "runtime/behaviors/shell_transform_step.h"

namespace rift::behaviors {
namespace {

const ir::Json kRequest = ir::Json::parse(R"({
  "requestFrom": "127.0.0.1:5000", "method": "GET", "path": "/users/ann",
  "query": {"id": "2"}, "headers": {"X-Key": "k"}, "body": "", "ip": "127.0.0.1"
})");

ir::Behavior behavior(ir::BehaviorKind kind, ir::Json config) {
  return ir::Behavior{kind, std::move(config)};
}

// Runs the pipeline and waits for its outcome (shellTransform finishes on another thread).
Outcome run(const std::vector<ir::Behavior>& behaviors, ir::Json response,
            const std::shared_ptr<Services>& services = std::make_shared<Services>()) {
  auto pipeline = Pipeline::prepare(behaviors);
  std::promise<Outcome> promise;
  auto future = promise.get_future();
  pipeline->run(StepContext{std::make_shared<const ir::Json>(kRequest), services},
                std::move(response),
                [&promise](Outcome outcome) { promise.set_value(std::move(outcome)); });
  return future.get();
}

ir::Json response_of(const Outcome& outcome) {
  EXPECT_TRUE(std::holds_alternative<Flow>(outcome));
  return std::holds_alternative<Flow>(outcome) ? std::get<Flow>(outcome).response : ir::Json();
}

std::string error_of(const Outcome& outcome) {
  EXPECT_TRUE(std::holds_alternative<MbError>(outcome));
  return std::holds_alternative<MbError>(outcome) ? std::get<MbError>(outcome).message : "";
}

class TempFile {
 public:
  TempFile(const std::string& name, const std::string& text) {
    path_ = std::filesystem::temp_directory_path() /
            ("rift_behaviors_" + std::to_string(::getpid()) + "_" + name + ".csv");
    write(text);
  }
  ~TempFile() { std::filesystem::remove(path_); }
  void write(const std::string& text) const { std::ofstream(path_, std::ios::binary) << text; }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

ir::Json lookup_config(const std::string& path, const ir::Json& from = {{"query", "id"}}) {
  return {{"key", {{"from", from}, {"using", {{"method", "regex"}, {"selector", ".*"}}}}},
          {"fromDataSource", {{"csv", {{"path", path}, {"keyColumn", "id"}}}}},
          {"into", "${row}"}};
}

TEST(NeedsPipeline, OnlyNumericWaitsAreServedWithoutIt) {
  ir::Response response;
  response.behaviors = {behavior(ir::BehaviorKind::kWait, 100),
                        behavior(ir::BehaviorKind::kWait, "200")};
  EXPECT_FALSE(needs_pipeline(response));
  response.behaviors.push_back(behavior(ir::BehaviorKind::kCopy, ir::Json::object()));
  EXPECT_TRUE(needs_pipeline(response));
}

// parseInt(millisecondsOrFn), as Node 20 reads it.
TEST(NeedsPipeline, WaitDelaysAreParseInt) {
  EXPECT_EQ(wait_delay(100), std::chrono::milliseconds(100));
  EXPECT_EQ(wait_delay(" 100"), std::chrono::milliseconds(100));
  EXPECT_EQ(wait_delay("100ms"), std::chrono::milliseconds(100));
  EXPECT_EQ(wait_delay("0x10"), std::chrono::milliseconds(16));
  EXPECT_EQ(wait_delay("-5"), std::chrono::milliseconds(0));
  EXPECT_EQ(wait_delay(1e21), std::chrono::milliseconds(1));  // parseInt("1e+21") is 1
  EXPECT_EQ(wait_delay("() => 5"), std::nullopt);
}

TEST(Pipeline, CopyReplacesTheTokenEverywhere) {
  auto outcome = run(
      {behavior(ir::BehaviorKind::kCopy,
                {{"from", "path"},
                 {"into", "${name}"},
                 {"using", {{"method", "regex"}, {"selector", "[a-z]+$"}}}})},
      {{"statusCode", 200}, {"headers", {{"X-${name}", "${name}"}}}, {"body", "hello ${name}"}});
  EXPECT_EQ(response_of(outcome).dump(),
            R"({"statusCode":200,"headers":{"X-ann":"ann"},"body":"hello ann"})");
}

TEST(Pipeline, WaitsAddUpIntoTheDelay) {
  auto outcome =
      run({behavior(ir::BehaviorKind::kWait, 100), behavior(ir::BehaviorKind::kWait, "150")},
          ir::Json::object());
  ASSERT_TRUE(std::holds_alternative<Flow>(outcome));
  EXPECT_EQ(std::get<Flow>(outcome).delay, std::chrono::milliseconds(250));
}

TEST(Pipeline, LookupFillsTheRowAndRereadsAChangedFile) {
  TempFile csv("reread", "id,name\n1,\"Smith, Ann\"\n2,Bob\n");
  auto services = std::make_shared<Services>();
  const ir::Json response = {{"body", R"(${row}["name"]/${row}['name']/${row}[name]/${row}[id])"}};
  EXPECT_EQ(response_of(run({behavior(ir::BehaviorKind::kLookup, lookup_config(csv.path()))},
                            response, services))["body"],
            "Bob/Bob/Bob/2");
  csv.write("id,name\n2,Robert Longer\n");  // a different size: seen at once
  EXPECT_EQ(response_of(run({behavior(ir::BehaviorKind::kLookup, lookup_config(csv.path()))},
                            response, services))["body"],
            "Robert Longer/Robert Longer/Robert Longer/2");
}

TEST(Pipeline, LookupThatFindsNothingKeepsTheTokens) {
  TempFile csv("no_row", "id,name\n1,Ann\n");
  const ir::Json response = {{"body", R"(${row}["name"])"}};
  EXPECT_EQ(response_of(run({behavior(ir::BehaviorKind::kLookup, lookup_config(csv.path()))},
                            response))["body"],
            R"(${row}["name"])");  // no row 2
  TempFile no_key_column("no_key_column", "key,name\n2,Ann\n");
  EXPECT_EQ(
      response_of(run({behavior(ir::BehaviorKind::kLookup, lookup_config(no_key_column.path()))},
                      response))["body"],
      R"(${row}["name"])");
  EXPECT_EQ(
      response_of(run({behavior(ir::BehaviorKind::kLookup, lookup_config("/nonexistent/rift.csv"))},
                      response))["body"],
      R"(${row}["name"])");
}

TEST(Pipeline, ShellTransformReplacesTheResponse) {
  auto outcome = run(
      {behavior(
          ir::BehaviorKind::kShellTransform,
          R"sh(printf '{"body": "%s", "statusCode": 201}' "$(printf '%s' "$MB_RESPONSE" | wc -c)" #)sh")},
      {{"body", "x"}});
  EXPECT_EQ(response_of(outcome).dump(), R"({"body":"12","statusCode":201})");
}

TEST(Pipeline, ShellTransformGetsTheJsonAsArgumentsToo) {
  auto outcome = run(
      {behavior(
          ir::BehaviorKind::kShellTransform,
          R"sh(f() { printf '{"body": %s}' "$(printf '%s' "$2" | sed 's/"/\\"/g; s/.*/"&"/')"; }; f)sh")},
      {{"body", "it's"}});
  EXPECT_EQ(response_of(outcome)["body"], R"({"body":"it's"})");
}

TEST(Pipeline, ShellTransformFailures) {
  EXPECT_EQ(error_of(run({behavior(ir::BehaviorKind::kShellTransform, "echo oops >&2; exit 3")},
                         ir::Json::object())),
            "Command failed: echo oops >&2; exit 3 '" + kRequest.dump() + "' '{}'\noops\n");
  EXPECT_EQ(error_of(run({behavior(ir::BehaviorKind::kShellTransform, "echo notjson #")},
                         ir::Json::object())),
            "Shell command returned invalid JSON: 'notjson\n'");
}

TEST(Pipeline, StepsRunInArrayOrderAcrossAShellTransform) {
  auto outcome = run(
      {behavior(ir::BehaviorKind::kCopy, {{"from", "path"},
                                          {"into", "${p}"},
                                          {"using", {{"method", "regex"}, {"selector", ".+"}}}}),
       behavior(
           ir::BehaviorKind::kShellTransform,
           R"sh(printf '%s' "$MB_RESPONSE" | sed 's/"body":"\([^"]*\)"/"body":"\1-shell-${p}"/' #)sh"),
       behavior(ir::BehaviorKind::kWait, 5)},
      {{"body", "${p}"}});
  ASSERT_TRUE(std::holds_alternative<Flow>(outcome));
  EXPECT_EQ(std::get<Flow>(outcome).response["body"], "/users/ann-shell-${p}");
  EXPECT_EQ(std::get<Flow>(outcome).delay, std::chrono::milliseconds(5));
}

TEST(ShellLine, ArgumentsAreDroppedAtMountebanksLimit) {
  EXPECT_EQ(shell_line("cmd", "{}", "{}"), "cmd '{}' '{}'");
  // Single quotes in the JSON are escaped for the shell.
  EXPECT_EQ(shell_line("cmd", R"({"a":"it's"})", "{}"), R"(cmd '{"a":"it'\''s"}' '{}')");
  const std::string fits(2048 - std::string("cmd '' '{}'").size() - 1, 'x');
  EXPECT_EQ(shell_line("cmd", fits, "{}"), "cmd '" + fits + "' '{}'");
  EXPECT_EQ(shell_line("cmd", fits + "x", "{}"), "cmd");
}

TEST(Pipeline, AFailedStepStopsThePipeline) {
  auto outcome = run({behavior(ir::BehaviorKind::kCopy,
                               {{"from", "body"},
                                {"into", "${x}"},
                                {"using", {{"method", "xpath"}, {"selector", "=*BAD*="}}}}),
                      behavior(ir::BehaviorKind::kShellTransform, "exit 1")},
                     ir::Json::object());
  EXPECT_EQ(error_of(outcome), "malformed xpath predicate selector");
}

}  // namespace
}  // namespace rift::behaviors
