// Scenario gates in the tree (docs/scenarios.md): a gated stub is filed under its folded required
// state in a value index of its scenario, the gate compares exactly, and a request reads its
// flow's states only through the context's ScenarioStates.
#include "compiler/scenarios.h"

#include <gtest/gtest.h>

#include <map>

#include "compiler/explain.h"
#include "compiler/interpreter.h"
#include "compiler/plan.h"
#include "predicate_test_util.h"

namespace rift {
namespace {

ir::Stub stub(const char* path, std::optional<std::string> required = std::nullopt,
              std::string scenario = "checkout") {
  ir::Stub out;
  out.predicates.push_back(testing::predicate_from(
      ir::Json::parse(std::string(R"({"equals": {"path": ")") + path + R"("}})")));
  if (required) {
    out.scenario_name = scenario;
    out.required_scenario_state = required;
    out.predicates.insert(out.predicates.begin(), scenario_gate(scenario, *required));
  }
  out.responses.push_back(ir::Response{});
  return out;
}

// The states a test sets; counts the reads, and can fail like a store that is down.
class Flow final : public ScenarioStates {
 public:
  std::map<std::string, std::string, std::less<>> states;
  bool down = false;
  int reads = 0;
  std::optional<std::string> state(std::string_view scenario) override {
    ++reads;
    if (down) return std::nullopt;
    auto it = states.find(scenario);
    return it == states.end() ? std::string(kInitialScenarioState) : it->second;
  }
};

// 0: /a in Started; 1: /a in Paid; 2: /a in paid; 3: /a, ungated; 4: /b, ungated.
std::vector<ir::Stub> stubs() {
  return {stub("/a", "Started"), stub("/a", "Paid"), stub("/a", "paid"), stub("/a"), stub("/b")};
}

std::shared_ptr<const plan::Tree> tree_of(const std::vector<ir::Stub>& list) {
  auto built = plan::build(list);
  EXPECT_EQ(built.index(), 0u);
  return std::get<0>(built);
}

int match(const plan::Tree& tree, const std::string& path, ScenarioStates* states) {
  Interpreter interpreter(std::shared_ptr<const plan::Tree>(&tree, [](const plan::Tree*) {}));
  const Request request = testing::request("GET", path);
  RequestContext context(request);
  context.set_scenario_states(states);
  return interpreter.match(context);
}

TEST(Scenarios, GatesAreAValueIndexOfTheirScenario) {
  const auto tree = tree_of(stubs());
  const plan::Cell& cell = tree->any_method.by_path.at("/a");
  ASSERT_EQ(cell.indexes.size(), 1u);
  EXPECT_EQ(cell.indexes[0].field, plan::Field::kScenario);
  EXPECT_EQ(cell.indexes[0].key, "checkout");
  // Paid and paid share one folded key; the gates tell them apart.
  EXPECT_EQ(cell.indexes[0].by_value.size(), 2u);
  EXPECT_EQ(cell.indexes[0].by_value.at("paid").candidates.size(), 2u);
  EXPECT_EQ(cell.rest.candidates.size(), 1u);  // the ungated stub
  EXPECT_EQ(std::string(plan::field_name(plan::Field::kScenario)), "scenario");
}

TEST(Scenarios, ARequestTakesTheStubsOfItsFlowsStateExactly) {
  const auto tree = tree_of(stubs());
  Flow flow;
  EXPECT_EQ(match(*tree, "/a", &flow), 0);
  flow.states["checkout"] = "Paid";
  EXPECT_EQ(match(*tree, "/a", &flow), 1);
  flow.states["checkout"] = "paid";
  EXPECT_EQ(match(*tree, "/a", &flow), 2);
  flow.states["checkout"] = "PAID";  // the folded index offers 1 and 2; neither gate holds
  EXPECT_EQ(match(*tree, "/a", &flow), 3);
  flow.states["checkout"] = "Shipped";
  EXPECT_EQ(match(*tree, "/a", &flow), 3);
  flow.states["other"] = "Paid";
  EXPECT_EQ(match(*tree, "/a", &flow), 3);
}

TEST(Scenarios, OnlyARequestThatReachesAGateReadsTheStore) {
  const auto tree = tree_of(stubs());
  Flow flow;
  EXPECT_EQ(match(*tree, "/b", &flow), 4);
  EXPECT_EQ(flow.reads, 0);
  EXPECT_EQ(match(*tree, "/a", &flow), 0);
  EXPECT_GT(flow.reads, 0);
}

TEST(Scenarios, AnUnreadableStateHoldsNoGate) {
  const auto tree = tree_of(stubs());
  Flow flow;
  flow.down = true;
  EXPECT_EQ(match(*tree, "/a", &flow), 3);
}

TEST(Scenarios, WithoutStatesEveryScenarioIsStarted) {
  const auto tree = tree_of(stubs());
  EXPECT_EQ(match(*tree, "/a", nullptr), 0);
}

TEST(Scenarios, ExplainNamesAFailedGate) {
  std::vector<ir::Stub> list = {stub("/a", "Paid")};
  const auto tree = tree_of(list);
  Flow flow;
  flow.states["checkout"] = "Started";
  ExplainOptions options;
  options.scenarios = &flow;
  const ir::Json report = explain(*tree, list, testing::request("GET", "/a"), options);
  EXPECT_TRUE(report["matched"].is_null());
  EXPECT_EQ(report["nearMisses"][0]["failedClause"]["reason"],
            "scenario 'checkout' is in state 'Started', not 'Paid'")
      << report.dump(2);
}

}  // namespace
}  // namespace rift
