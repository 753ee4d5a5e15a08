#include "tests/equivalence/aot/aot_corpus.h"

namespace rift::equivalence::aot {
namespace {

constexpr uint64_t kSeed = 20261202;
constexpr int kSmallLists = 400;
constexpr int kSmallRequests = 200;
constexpr int kLargeLists = 6;
constexpr int kLargeRequests = 4000;
// Lists with stubs in spaces (docs/spaces.md): small ones, and one large API mock.
constexpr int kSpacedLists = 40;
// Lists with scenario-gated stubs (docs/scenarios.md), some of them in spaces too.
constexpr int kScenarioLists = 40;

uint64_t mix(uint64_t seed, uint64_t n) {
  uint64_t z = seed + 0x9E3779B97F4A7C15ull * (n + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

std::vector<CorpusList> corpus() {
  std::vector<CorpusList> lists;
  for (int i = 0; i < kSmallLists; ++i) {
    const uint64_t seed = mix(kSeed, static_cast<uint64_t>(i));
    lists.push_back(
        {seed, 1 + static_cast<int>(mix(seed, 7) % 20), StubGrammar::Shape{}, kSmallRequests});
  }
  for (int i = 0; i < kLargeLists; ++i) {
    const uint64_t seed = mix(kSeed + 1, static_cast<uint64_t>(i));
    lists.push_back(
        {seed, 300, StubGrammar::Shape{.catch_all = 0, .dispatch = 75}, kLargeRequests});
  }
  for (int i = 0; i < kSpacedLists; ++i) {
    const uint64_t seed = mix(kSeed + 2, static_cast<uint64_t>(i));
    lists.push_back({seed, 1 + static_cast<int>(mix(seed, 7) % 20),
                     StubGrammar::Shape{.spaced = 40}, kSmallRequests});
  }
  lists.push_back({mix(kSeed + 3, 0), 300,
                   StubGrammar::Shape{.catch_all = 0, .dispatch = 75, .spaced = 60},
                   kLargeRequests});
  for (int i = 0; i < kScenarioLists; ++i) {
    const uint64_t seed = mix(kSeed + 4, static_cast<uint64_t>(i));
    lists.push_back({seed, 1 + static_cast<int>(mix(seed, 7) % 20),
                     StubGrammar::Shape{.spaced = 20, .scenario = 50}, kSmallRequests});
  }
  lists.push_back({mix(kSeed + 5, 0), 300,
                   StubGrammar::Shape{.catch_all = 0, .dispatch = 75, .scenario = 40},
                   kLargeRequests});
  return lists;
}

std::vector<ir::Stub> stubs_of(const CorpusList& list, StubGrammar& grammar) {
  return grammar.stubs(list.stubs, list.shape);
}

}  // namespace rift::equivalence::aot
