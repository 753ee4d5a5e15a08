// Background tiering with a stand-in compiler: swaps, coalescing, stale results and failures,
// and readers racing the swap (this file is also built with ThreadSanitizer in CI).
#include "runtime/tiering/tiering.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <thread>

#include "compiler/interpreter.h"
#include "compiler/predicate_context.h"
#include "runtime/imposter/imposter.h"

namespace rift {
namespace {

// The interpreter under another name, so a test can tell when the compiled tier serves.
class FakeTier final : public Matcher {
 public:
  explicit FakeTier(std::shared_ptr<const plan::Tree> tree) : inner_(std::move(tree)) {}
  int match(RequestContext& context) const override { return inner_.match(context); }
  const char* tier() const override { return "fake"; }

 private:
  Interpreter inner_;
};

struct FakeCompiler final : TierCompiler {
  std::atomic<int> compiles{0};
  std::atomic<bool> fail{false};
  std::atomic<int> delay_ms{0};  // how long each compile takes
  // While `hold` is set, compile() waits until it is cleared (to land edits mid-compile).
  std::mutex mutex;
  std::condition_variable changed;
  bool hold = false;
  bool holding = false;

  std::variant<CompiledTier, std::string> compile(
      const ir::Imposter&, const std::shared_ptr<const plan::Tree>& tree) override {
    ++compiles;
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms.load()));
    {
      std::unique_lock lock(mutex);
      holding = true;
      changed.notify_all();
      changed.wait(lock, [&] { return !hold; });
      holding = false;
    }
    if (fail) return std::string("no code today");
    CompiledTier tier;
    tier.matcher = std::make_unique<FakeTier>(tree);
    tier.code_bytes = 123;
    return tier;
  }
  void set_hold(bool value) {
    std::lock_guard lock(mutex);
    hold = value;
    changed.notify_all();
  }
  void wait_until_holding() {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return holding; });
  }
};

ir::Stub stub_for(const std::string& path) {
  ir::Predicate predicate;
  predicate.op = ir::Op::kEquals;
  predicate.fields = {{"path", path}};
  ir::Stub out;
  out.predicates.push_back(std::move(predicate));
  ir::Response response;
  response.value = ir::Json::object();
  out.responses.push_back(response);
  return out;
}

ir::Imposter config_with(std::vector<ir::Stub> stubs) {
  ir::Imposter config;
  config.protocol = "http";
  config.port = 4545;
  config.stubs = std::move(stubs);
  return config;
}

struct Fixture {
  explicit Fixture(TieringSettings settings = {}) {
    auto owned = std::make_unique<FakeCompiler>();
    compiler = owned.get();
    auto handoff = std::make_shared<std::unique_ptr<TierCompiler>>(std::move(owned));
    tiering = std::make_unique<Tiering>(
        [handoff]() -> std::variant<std::unique_ptr<TierCompiler>, std::string> {
          return std::move(*handoff);
        },
        settings,
        [this](const std::string& error) {
          std::lock_guard lock(reported_mutex);
          reported.push_back(error);
        });
  }
  std::shared_ptr<Imposter> imposter(std::vector<ir::Stub> stubs) {
    ServingOptions options;
    options.tiering = tiering.get();
    auto created = Imposter::create(config_with(std::move(stubs)), options);
    EXPECT_TRUE(std::holds_alternative<std::shared_ptr<Imposter>>(created));
    return std::get<std::shared_ptr<Imposter>>(created);
  }

  FakeCompiler* compiler = nullptr;
  std::mutex reported_mutex;
  std::vector<std::string> reported;
  std::unique_ptr<Tiering> tiering;  // last: its thread stops before the rest goes
};

int match_path(const PlanSnapshot& snapshot, const std::string& path) {
  Request request;
  request.method = "GET";
  request.path = path;
  RequestContext context(request);
  return snapshot.matcher->match(context);
}

TEST(Tiering, CompiledTierReplacesTheInterpreterForTheSamePlan) {
  Fixture fixture;
  auto imposter = fixture.imposter({stub_for("/a"), stub_for("/b")});
  const uint64_t version = imposter->snapshot()->version;
  fixture.tiering->drain();
  const auto snapshot = imposter->snapshot();
  EXPECT_STREQ(snapshot->matcher->tier(), "fake");
  EXPECT_EQ(snapshot->version, version);
  EXPECT_EQ(snapshot->code_bytes, 123u);
  EXPECT_EQ(match_path(*snapshot, "/b"), 1);
  EXPECT_EQ(fixture.tiering->metrics().swaps.load(), 1u);
}

TEST(Tiering, AnEditIsServedAtOnceAndCompiledAfterwards) {
  Fixture fixture;
  auto imposter = fixture.imposter({stub_for("/a")});
  fixture.tiering->drain();
  ASSERT_EQ(imposter->set_stubs({stub_for("/z"), stub_for("/a")}, {-1, 0}), std::nullopt);
  // Published before set_stubs returned: the next request sees the edit, on the interpreter.
  const auto now = imposter->snapshot();
  EXPECT_EQ(match_path(*now, "/z"), 0);
  fixture.tiering->drain();
  EXPECT_STREQ(imposter->snapshot()->matcher->tier(), "fake");
  EXPECT_EQ(match_path(*imposter->snapshot(), "/a"), 1);
}

TEST(Tiering, BurstsOfEditsCoalesceIntoFewCompiles) {
  // A long quiet period: the 200 edits below are one burst however slowly this machine runs.
  TieringSettings settings;
  settings.quiet = std::chrono::milliseconds(300);
  settings.max_delay = std::chrono::seconds(60);
  Fixture fixture(settings);
  auto imposter = fixture.imposter({});
  std::vector<ir::Stub> stubs;
  for (int i = 0; i < 200; ++i) {
    stubs.push_back(stub_for("/s" + std::to_string(i)));
    std::vector<int> keep(stubs.size() - 1);
    for (size_t k = 0; k < keep.size(); ++k) keep[k] = static_cast<int>(k);
    ASSERT_EQ(imposter->set_stubs(stubs, keep), std::nullopt);
  }
  fixture.tiering->drain();
  EXPECT_LE(fixture.compiler->compiles.load(), 2);  // 2 only if this machine stalled 300 ms
  const auto snapshot = imposter->snapshot();
  EXPECT_STREQ(snapshot->matcher->tier(), "fake");
  EXPECT_EQ(snapshot->version, 201u);
  EXPECT_EQ(match_path(*snapshot, "/s199"), 199);
}

TEST(Tiering, ACompileOvertakenByAnEditIsDiscardedAndRedone) {
  Fixture fixture;
  fixture.compiler->set_hold(true);
  auto imposter = fixture.imposter({stub_for("/old")});
  fixture.compiler->wait_until_holding();
  ASSERT_EQ(imposter->set_stubs({stub_for("/new")}, {-1}), std::nullopt);
  fixture.compiler->set_hold(false);
  fixture.tiering->drain();
  EXPECT_EQ(fixture.tiering->metrics().discarded.load(), 1u);
  EXPECT_EQ(fixture.tiering->metrics().swaps.load(), 1u);
  const auto snapshot = imposter->snapshot();
  EXPECT_STREQ(snapshot->matcher->tier(), "fake");
  EXPECT_EQ(snapshot->version, 2u);
  EXPECT_EQ(match_path(*snapshot, "/new"), 0);
  EXPECT_EQ(match_path(*snapshot, "/old"), kNoMatch);
}

TEST(Tiering, SteadyEditsFasterThanACompileDoNotKeepStartingDoomedCompiles) {
  Fixture fixture;
  fixture.compiler->delay_ms = 300;
  auto imposter = fixture.imposter({stub_for("/v0")});
  // 150 edits 10 ms apart: a 300 ms compile started during them is always overtaken.
  for (int edit = 1; edit <= 150; ++edit) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_EQ(imposter->set_stubs({stub_for("/v" + std::to_string(edit))}, {-1}), std::nullopt);
  }
  fixture.tiering->drain();
  // Without the back-off a compile would start 3 ms after each one ends: five or so discarded.
  // With it, the first one is overtaken and the next waits for a 300 ms pause, which comes when
  // the edits stop (a second discard only if this machine stalled 300 ms between two edits).
  EXPECT_LE(fixture.tiering->metrics().discarded.load(), 2u);
  EXPECT_LE(fixture.compiler->compiles.load(), 3);
  EXPECT_EQ(fixture.tiering->metrics().swaps.load(), 1u);
  const auto snapshot = imposter->snapshot();
  EXPECT_STREQ(snapshot->matcher->tier(), "fake");
  EXPECT_EQ(match_path(*snapshot, "/v150"), 0);
}

TEST(Tiering, ACompiledImposterWaitsForItsEditsToPauseAsLongAsItsLastCompileTook) {
  Fixture fixture;
  fixture.compiler->delay_ms = 600;
  auto imposter = fixture.imposter({stub_for("/v0")});
  fixture.tiering->drain();
  ASSERT_EQ(fixture.compiler->compiles.load(), 1);
  // A new burst, 10 ms apart: no compile starts until the edits have paused for 600 ms, so none
  // is overtaken (the first one of a burst used to be, 3 ms after the burst began).
  for (int edit = 1; edit <= 20; ++edit) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_EQ(imposter->set_stubs({stub_for("/v" + std::to_string(edit))}, {-1}), std::nullopt);
  }
  fixture.tiering->drain();
  EXPECT_EQ(fixture.tiering->metrics().discarded.load(), 0u);
  EXPECT_EQ(fixture.compiler->compiles.load(), 2);
  EXPECT_EQ(fixture.tiering->metrics().swaps.load(), 2u);
  EXPECT_EQ(match_path(*imposter->snapshot(), "/v20"), 0);
}

TEST(Tiering, AFailedCompileLeavesTheInterpreterServingAndIsReported) {
  Fixture fixture;
  fixture.compiler->fail = true;
  auto imposter = fixture.imposter({stub_for("/a")});
  fixture.tiering->drain();
  EXPECT_STREQ(imposter->snapshot()->matcher->tier(), "interpreter");
  EXPECT_EQ(match_path(*imposter->snapshot(), "/a"), 0);
  EXPECT_EQ(fixture.tiering->metrics().failures.load(), 1u);
  std::lock_guard lock(fixture.reported_mutex);
  ASSERT_EQ(fixture.reported.size(), 1u);
  EXPECT_NE(fixture.reported[0].find("no code today"), std::string::npos);
  EXPECT_NE(render_tiering_metrics(fixture.tiering->metrics()).find("rift_jit_failures_total 1"),
            std::string::npos);
}

TEST(Tiering, AFailedFactoryMeansTheInterpreterServes) {
  std::vector<std::string> reported;
  Tiering tiering(
      [] { return std::variant<std::unique_ptr<TierCompiler>, std::string>("no llvm"); }, {},
      [&](const std::string& error) { reported.push_back(error); });
  ServingOptions options;
  options.tiering = &tiering;
  auto created = Imposter::create(config_with({stub_for("/a")}), options);
  auto imposter = std::get<std::shared_ptr<Imposter>>(created);
  tiering.drain();
  EXPECT_STREQ(imposter->snapshot()->matcher->tier(), "interpreter");
  ASSERT_FALSE(reported.empty());
  EXPECT_NE(reported[0].find("no llvm"), std::string::npos);
}

// Readers load and run whatever is published while edits and swaps land: under TSan this is
// the proof that publishing and swapping need no lock on the request path.
TEST(Tiering, ReadersRacingEditsAndSwapsAlwaysSeeAWholePlan) {
  TieringSettings settings;
  settings.quiet = std::chrono::milliseconds(0);
  Fixture fixture(settings);
  auto imposter = fixture.imposter({stub_for("/v0")});
  std::atomic<bool> done{false};
  std::atomic<uint64_t> checked{0};
  std::atomic<uint64_t> wrong{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 3; ++t) {
    readers.emplace_back([&] {
      while (!done.load()) {
        const auto snapshot = imposter->snapshot();
        // Version v serves exactly one stub, at path /v(v-1), and nothing else.
        const std::string path = "/v" + std::to_string(snapshot->version - 1);
        if (match_path(*snapshot, path) != 0 || match_path(*snapshot, "/other") != kNoMatch) {
          ++wrong;
        }
        ++checked;
      }
    });
  }
  for (int edit = 1; edit <= 2000; ++edit) {
    ASSERT_EQ(imposter->set_stubs({stub_for("/v" + std::to_string(edit))}, {-1}), std::nullopt);
    if (edit % 100 == 0) fixture.tiering->drain();  // let some swaps land between edits
  }
  fixture.tiering->drain();
  done = true;
  for (auto& reader : readers) reader.join();
  EXPECT_EQ(wrong.load(), 0u);
  EXPECT_GT(checked.load(), 0u);
  EXPECT_GE(fixture.tiering->metrics().swaps.load(), 20u);
  EXPECT_STREQ(imposter->snapshot()->matcher->tier(), "fake");
}

}  // namespace
}  // namespace rift
