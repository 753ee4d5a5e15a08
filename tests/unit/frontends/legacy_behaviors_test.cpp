// docs/mountebank-semantics.md §6.1 and checklist 17: legacy `_behaviors` objects are echoed as
// `repeat` + `behaviors`.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "frontends/upcast.h"
#include "test_helpers.h"

namespace rift::frontends {
namespace {

using testing::json;

TEST(LegacyBehaviors, ChecklistSeventeen) {
  auto result = parse_stub(
      json(R"({"responses":[{"is":{"body":"x"},"_behaviors":{"repeat":2,"wait":10}}]})"), {});
  ASSERT_TRUE(std::holds_alternative<ir::Stub>(result));
  const auto& stub = std::get<ir::Stub>(result);
  EXPECT_EQ(stub.source.dump(),
            R"({"responses":[{"is":{"body":"x"},"repeat":2,"behaviors":[{"wait":10}]}]})");
  ASSERT_EQ(stub.responses.size(), 1u);
  EXPECT_EQ(stub.responses[0].repeat, 2);
  EXPECT_EQ(stub.responses[0].behaviors,
            (std::vector<ir::Behavior>{{ir::BehaviorKind::kWait, 10}}));
}

TEST(LegacyBehaviors, ExecutionOrderAndArrays) {
  const ir::Json stub = upcast_stub(json(R"({"extra":1,"responses":[{
    "_behaviors":{"decorate":"d","shellTransform":"s","copy":[{"c":1},{"c":2}],"lookup":{"l":1},
                  "wait":5,"repeat":3},
    "is":{},"zz":1}],"predicates":[]})"));
  // Removed keys vanish, `repeat` then `behaviors` are appended, as Mountebank's JavaScript does.
  EXPECT_EQ(stub.dump(),
            R"({"extra":1,"responses":[{"is":{},"zz":1,"repeat":3,"behaviors":[{"wait":5},)"
            R"({"lookup":{"l":1}},{"copy":{"c":1}},{"copy":{"c":2}},{"shellTransform":"s"},)"
            R"({"decorate":"d"}]}],"predicates":[]})");
}

TEST(LegacyBehaviors, NotConvertedWhenBehaviorsOrRepeatExist) {
  const ir::Json stub = upcast_stub(json(R"({"responses":[
    {"_behaviors":{"wait":1},"repeat":3,"is":{}},
    {"_behaviors":{"shellTransform":"a"},"behaviors":[],"is":{}}]})"));
  // Only the single shellTransform string is upcast to an array.
  EXPECT_EQ(stub.dump(), R"({"responses":[{"_behaviors":{"wait":1},"repeat":3,"is":{}},)"
                         R"({"_behaviors":{"shellTransform":["a"]},"behaviors":[],"is":{}}]})");
}

TEST(LegacyBehaviors, ConvertedBehaviorsAreValidated) {
  const auto errors = testing::stub_errors(
      json(R"({"responses":[{"is":{},"_behaviors":{"wait":-5,"repeat":0}}]})"));
  EXPECT_THAT(testing::messages(errors),
              ::testing::ElementsAre(
                  "wait behavior \"wait\" field must be an integer greater than or equal to 0",
                  "\"repeat\" field must be an integer greater than 0"));
}

TEST(LegacyBehaviors, ShellTransformStringIsGated) {
  const auto errors = testing::stub_errors(
      json(R"({"responses":[{"is":{},"_behaviors":{"shellTransform":"cmd","decorate":"f"}}]})"));
  EXPECT_THAT(
      testing::messages(errors),
      ::testing::ElementsAre(
          "JavaScript injection is not allowed unless mb is run with the --allowInjection flag",
          "Shell execution is not allowed unless mb is run with the --allowInjection flag"));
  EXPECT_EQ(
      errors[0].source,
      json(R"({"responses":[{"is":{},"behaviors":[{"shellTransform":"cmd"},{"decorate":"f"}]}]})"));
}

}  // namespace
}  // namespace rift::frontends
