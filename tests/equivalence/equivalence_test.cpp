// The randomized equivalence tester (in the style of RE2's exhaustive tester): every matcher
// tier in tiers.h must pick the same stub as a plain first-match scan, and fail the same way,
// on every generated (stub list, request) pair.
//
// RIFT_EQUIV_SEED and RIFT_EQUIV_PAIRS override the fixed defaults (CI runs the defaults, so it
// is deterministic); RIFT_EQUIV_LIST=N runs only list N of each family, which is how a failure
// printed with its seed and list number is reproduced.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "tests/equivalence/known_differences.h"
#include "tests/equivalence/reference_scan.h"
#include "tests/equivalence/shrink.h"
#include "tests/equivalence/stub_grammar.h"
#include "tests/equivalence/tiers.h"

namespace rift::equivalence {
namespace {

constexpr uint64_t kDefaultSeed = 20260314;
constexpr uint64_t kDefaultPairs = 101'000;
// Pairs spent on the large-list family; the rest go to small lists.
constexpr uint64_t kLargeListPairs = 1'000;
constexpr uint64_t kLargeListRequests = 250;
constexpr uint64_t kSmallListRequests = 20;
// Shrinking costs a planner build per step: only the first disagreements are shrunk, and
// only distinct reproductions are printed.
constexpr int kShrunkFailures = 20;
constexpr size_t kReportedFailures = 5;

std::optional<uint64_t> env_number(const char* name) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return std::nullopt;
  return std::strtoull(text, nullptr, 0);
}

struct Settings {
  uint64_t seed = env_number("RIFT_EQUIV_SEED").value_or(kDefaultSeed);
  uint64_t pairs = env_number("RIFT_EQUIV_PAIRS").value_or(kDefaultPairs);
  std::optional<uint64_t> only_list = env_number("RIFT_EQUIV_LIST");
};

// SplitMix64 over (seed, family, list): each list gets its own generator, so one list can be
// rerun alone without replaying the ones before it.
uint64_t list_seed(uint64_t seed, uint64_t family, uint64_t list) {
  uint64_t z = seed + 0x9E3779B97F4A7C15ull * (family * 0x100000001ull + list + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

struct Family {
  const char* name;
  uint64_t tag;
  uint64_t lists;
  uint64_t requests_per_list;
  int min_stubs;
  int max_stubs;
  StubGrammar::Shape shape;
};

struct Tally {
  uint64_t pairs = 0;
  uint64_t matched = 0;
  uint64_t no_match = 0;
  uint64_t errors = 0;
  uint64_t disagreements = 0;
  std::map<std::string, uint64_t> known;  // reported, awaiting a planner fix
};

// Runs the lists of `family` whose number is `shard` modulo kShards (all with kAllShards).
constexpr uint64_t kShards = 2;
constexpr uint64_t kAllShards = kShards;

void run(const Family& family, uint64_t shard = kAllShards) {
  const Settings settings;
  const std::vector<Tier> all_tiers = tiers();
  Tally tally;
  std::set<std::string> reported;
  int shrunk = 0;
  for (uint64_t list = 0; list < family.lists; ++list) {
    if (settings.only_list && *settings.only_list != list) continue;
    if (shard != kAllShards && list % kShards != shard) continue;
    StubGrammar grammar(list_seed(settings.seed, family.tag, list));
    const int span = family.max_stubs - family.min_stubs + 1;
    const int count =
        family.min_stubs + static_cast<int>(list_seed(settings.seed, family.tag + 100, list) %
                                            static_cast<uint64_t>(span));
    const std::vector<ir::Stub> stubs = grammar.stubs(count, family.shape);
    const ReferenceScan reference(stubs);
    std::vector<Built> built;
    for (const auto& tier : all_tiers) built.push_back(tier.build(stubs));

    for (uint64_t r = 0; r < family.requests_per_list; ++r) {
      const Request request = grammar.request(stubs);
      const Answer expected = reference.answer(request);
      ++tally.pairs;
      if (expected.creation_error || expected.evaluation_error) {
        ++tally.errors;
      } else if (expected.stub == kNoMatch) {
        ++tally.no_match;
      } else {
        ++tally.matched;
      }
      for (size_t t = 0; t < all_tiers.size(); ++t) {
        if (answer_of(built[t], request) == expected) continue;
        if (auto known = known_difference(all_tiers[t], Case{stubs, request})) {
          ++tally.known[*known];
          continue;
        }
        ++tally.disagreements;
        if (shrunk >= kShrunkFailures || reported.size() >= kReportedFailures) continue;
        ++shrunk;
        const Case minimal = shrink(all_tiers[t], Case{stubs, request});
        const std::string text = reproduction(all_tiers[t], minimal);
        if (!reported.insert(text).second) continue;  // the same bug, found again
        ADD_FAILURE() << all_tiers[t].name << " disagrees with the reference scan.\n"
                      << "Reproduce: RIFT_EQUIV_SEED=" << settings.seed
                      << " RIFT_EQUIV_LIST=" << list << " (family " << family.name << ", request "
                      << r << ")\nShrunk reproduction:\n"
                      << text;
      }
    }
  }
  std::cout << family.name << ": " << tally.pairs << " pairs (seed " << settings.seed
            << "): " << tally.matched << " matched a stub, " << tally.no_match << " matched none, "
            << tally.errors << " errors; " << tally.disagreements << " new disagreements\n";
  for (const auto& [name, count] : tally.known) {
    std::cout << "  known difference (see regressions_test.cpp), " << count << "x: " << name
              << "\n";
  }
  EXPECT_EQ(tally.disagreements, 0u);
}

uint64_t large_pairs(const Settings& settings) {
  return std::min(kLargeListPairs, settings.pairs / 10);
}

// Small lists in two shards (even and odd list numbers), so that ctest -j2 runs them side by
// side; list numbers, and so reproductions, do not depend on the sharding.
void run_small_lists(uint64_t shard) {
  const Settings settings;
  const uint64_t pairs = settings.pairs - large_pairs(settings);
  run(Family{"small lists (1-15 stubs)", 1, (pairs + kSmallListRequests - 1) / kSmallListRequests,
             kSmallListRequests, 1, 15, StubGrammar::Shape{}},
      shard);
}

TEST(Equivalence, SmallStubListsAgreeWithFirstMatchScanShard0) {
  run_small_lists(0);
}

TEST(Equivalence, SmallStubListsAgreeWithFirstMatchScanShard1) {
  run_small_lists(1);
}

TEST(Equivalence, LargeStubListsAgreeWithFirstMatchScan) {
  const Settings settings;
  const uint64_t pairs = large_pairs(settings);
  const uint64_t requests = std::min(kLargeListRequests, std::max<uint64_t>(pairs, 1));
  // Mostly dispatchable stubs, like a real API mock, and catch-alls rare enough that most of
  // the list is reachable.
  run(Family{"large lists (300 stubs)", 2, (pairs + requests - 1) / requests, requests, 300, 300,
             StubGrammar::Shape{.catch_all = 0, .dispatch = 75}});
}

}  // namespace
}  // namespace rift::equivalence
