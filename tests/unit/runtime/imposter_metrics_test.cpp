// Per-thread shards of the imposter metrics: what several workers add is all there on read.
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/base/sharded_counter.h"
#include "runtime/imposter/metrics.h"

namespace rift {
namespace {

constexpr int kThreads = 6;
constexpr int kPerThread = 10'000;

template <typename Work>
void on_threads(Work work) {
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(work);
  for (auto& thread : threads) thread.join();
}

TEST(ShardedCounter, SumsWhatEveryThreadAddedAndResetsToZero) {
  ShardedCounter counter;
  on_threads([&] {
    for (int i = 0; i < kPerThread; ++i) counter.add();
  });
  counter.add(5);
  EXPECT_EQ(counter.load(), uint64_t{kThreads * kPerThread + 5});
  counter.reset();
  EXPECT_EQ(counter.load(), 0u);
}

TEST(ImposterMetrics, HistogramsRenderTheObservationsOfEveryThread) {
  ImposterMetrics metrics;
  on_threads([&] {
    for (int i = 0; i < kPerThread; ++i) {
      metrics.match_duration.observe(0.001);  // first bucket (le 0.01)
      metrics.match_duration.observe(2.0);    // above every bound: +Inf only
    }
    metrics.requests.add();
  });
  EXPECT_EQ(metrics.match_duration.count(), uint64_t{2 * kThreads * kPerThread});
  const std::string text = render_metrics({{"[http:4545] ", &metrics}});
  const std::string first = std::to_string(kThreads * kPerThread);
  const std::string all = std::to_string(2 * kThreads * kPerThread);
  const std::string label = "imposter=\"[http:4545] \"";
  EXPECT_NE(text.find("mb_predicate_match_duration_seconds_bucket{le=\"0.01\"," + label + "} " +
                      first + "\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("mb_predicate_match_duration_seconds_bucket{le=\"1\"," + label + "} " +
                      first + "\n"),
            std::string::npos);
  EXPECT_NE(text.find("mb_predicate_match_duration_seconds_bucket{le=\"+Inf\"," + label + "} " +
                      all + "\n"),
            std::string::npos);
  EXPECT_NE(text.find("mb_predicate_match_duration_seconds_count{" + label + "} " + all + "\n"),
            std::string::npos);
  EXPECT_NE(text.find("{" + label + "} " + std::to_string(kThreads) + "\n"), std::string::npos);
}

}  // namespace
}  // namespace rift
