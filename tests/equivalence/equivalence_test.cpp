// The randomized equivalence tester (in the style of RE2's exhaustive tester): every matcher
// tier in tiers.h must pick the same stub as a plain first-match scan, and fail the same way,
// on every generated (stub list, request) pair; and the interpreter must answer as it does with
// slow paths only (RequestContext::slow_paths()), which checks the evaluator's fast paths
// (plain fields, the simdjson tape, the SAX pass, caches shared between predicates) against the
// plain way of evaluating each predicate.
//
// RIFT_EQUIV_SEED, RIFT_EQUIV_PAIRS and RIFT_EQUIV_SLOW_PAIRS override the fixed defaults (CI
// runs the defaults, so it is deterministic); RIFT_EQUIV_LIST=N runs only list N of each family,
// which is how a failure printed with its seed and list number is reproduced.
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
#include "tests/equivalence/tcp_lists.h"
#include "tests/equivalence/tiers.h"

namespace rift::equivalence {
namespace {

constexpr uint64_t kDefaultSeed = 20260314;
constexpr uint64_t kDefaultPairs = 101'000;
// Pairs the interpreter is checked on against its slow paths (which parse every body afresh for
// every predicate); RIFT_EQUIV_SLOW_PAIRS=200000 is the long run.
constexpr uint64_t kDefaultSlowPairs = 20'000;
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
  uint64_t slow_pairs = env_number("RIFT_EQUIV_SLOW_PAIRS").value_or(kDefaultSlowPairs);
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
  // tcp (docs/tcp.md): the drawn stubs' `path` predicates become `data` ones, requests become
  // tcp requests carrying their path as data, and the tiers plan for tcp.
  bool tcp = false;
};

struct Tally {
  uint64_t pairs = 0;
  uint64_t matched = 0;
  uint64_t no_match = 0;
  uint64_t errors = 0;
  uint64_t disagreements = 0;
  std::map<std::string, uint64_t> known;  // reported, awaiting a planner fix
};

// What a run checks: each of `tiers` against the oracle, which is the reference scan or, when
// set, another tier.
struct Check {
  std::vector<Tier> tiers = equivalence::tiers();
  std::optional<Tier> oracle;
  std::string oracle_name() const { return oracle ? oracle->name : "the reference scan"; }
};

// Runs the lists of `family` whose number is `shard` modulo kShards (all with kAllShards).
constexpr uint64_t kShards = 2;
constexpr uint64_t kAllShards = kShards;

void run(const Family& family, uint64_t shard = kAllShards, const Check& check = Check{}) {
  const Settings settings;
  const std::vector<Tier>& all_tiers = check.tiers;
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
    const std::vector<ir::Stub> drawn = grammar.stubs(count, family.shape);
    const std::vector<ir::Stub> stubs = family.tcp ? as_tcp(drawn) : drawn;
    std::optional<ReferenceScan> reference;
    std::optional<Built> oracle;
    if (check.oracle) {
      oracle = check.oracle->build(stubs);
    } else {
      reference.emplace(stubs);
    }
    std::vector<Built> built;
    for (const auto& tier : all_tiers) built.push_back(tier.build(stubs));

    for (uint64_t r = 0; r < family.requests_per_list; ++r) {
      const Request request = family.tcp ? as_tcp(grammar.request(drawn)) : grammar.request(drawn);
      const Answer expected = oracle ? answer_of(*oracle, request) : reference->answer(request);
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
        if (!check.oracle) {
          if (auto known = known_difference(all_tiers[t], Case{stubs, request})) {
            ++tally.known[*known];
            continue;
          }
        }
        ++tally.disagreements;
        if (shrunk >= kShrunkFailures || reported.size() >= kReportedFailures) continue;
        ++shrunk;
        const Case found{stubs, request};
        const Case minimal =
            check.oracle ? shrink(all_tiers[t], *check.oracle, found) : shrink(all_tiers[t], found);
        const std::string text = check.oracle ? reproduction(all_tiers[t], *check.oracle, minimal)
                                              : reproduction(all_tiers[t], minimal);
        if (!reported.insert(text).second) continue;  // the same bug, found again
        ADD_FAILURE() << all_tiers[t].name << " disagrees with " << check.oracle_name() << ".\n"
                      << "Reproduce: RIFT_EQUIV_SEED=" << settings.seed
                      << " RIFT_EQUIV_LIST=" << list << " (family " << family.name << ", request "
                      << r << ")\nShrunk reproduction:\n"
                      << text;
      }
    }
  }
  std::cout << family.name << ", against " << check.oracle_name() << ": " << tally.pairs
            << " pairs (seed " << settings.seed << "): " << tally.matched << " matched a stub, "
            << tally.no_match << " matched none, " << tally.errors << " errors; "
            << tally.disagreements << " new disagreements\n";
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

// Mostly dispatchable stubs, like a real API mock, and catch-alls rare enough that most of the
// list is reachable.
Family large_lists(uint64_t tag, uint64_t pairs) {
  const uint64_t requests = std::min(kLargeListRequests, std::max<uint64_t>(pairs, 1));
  return Family{"large lists (300 stubs)",
                tag,
                (pairs + requests - 1) / requests,
                requests,
                300,
                300,
                StubGrammar::Shape{.catch_all = 0, .dispatch = 75}};
}

TEST(Equivalence, LargeStubListsAgreeWithFirstMatchScan) {
  run(large_lists(2, large_pairs(Settings{})));
}

// Spaces (docs/spaces.md): stubs in a few spaces whose ids differ only in case, among global
// ones, and requests from each space, from spaces no stub lives in, and with no flow id. A tenth
// of the pairs, on top of the rest; the large lists are an API mock shared by several teams.
TEST(Equivalence, StubListsInSpacesAgreeWithFirstMatchScan) {
  const Settings settings;
  const uint64_t pairs = settings.pairs / 10;
  run(Family{"small lists in spaces", 7, (pairs + kSmallListRequests - 1) / kSmallListRequests,
             kSmallListRequests, 1, 15, StubGrammar::Shape{.spaced = 40}});
  Family large = large_lists(8, large_pairs(settings));
  large.name = "large lists in spaces";
  large.shape.spaced = 60;
  run(large);
}

// Scenarios (docs/scenarios.md): stubs gated on scenario states whose names and states differ
// only in case (the tree files gates under folded states; the gate compares exactly), some in
// spaces, and requests whose flows are in the state the aimed-at stub needs, or another.
TEST(Equivalence, ScenarioGatedStubListsAgreeWithFirstMatchScan) {
  const Settings settings;
  const uint64_t pairs = settings.pairs / 10;
  run(Family{"small lists with scenario gates", 9,
             (pairs + kSmallListRequests - 1) / kSmallListRequests, kSmallListRequests, 1, 15,
             StubGrammar::Shape{.spaced = 20, .scenario = 50}});
  Family large = large_lists(10, large_pairs(settings));
  large.name = "large lists with scenario gates";
  large.shape.scenario = 40;
  run(large);
}

// The interpreter against itself with slow paths only, on the same grammar: the fast paths of
// predicate evaluation may never change an answer. Both sides walk the same tree, so a
// difference is the evaluator's (or plan::request_values'), never the planner's. Half the small
// lists are drawn as everywhere else, half with most predicates and requests on JSON and XML
// bodies (Shape::body_focus), where the fast paths are; small lists run in two shards, and the
// large lists alternate between them.
void run_slow_paths(uint64_t shard) {
  const Settings settings;
  const Check check{{Tier{"interpreter", &build_interpreter}}, slow_interpreter_tier()};
  const uint64_t large = std::min(kLargeListPairs, settings.slow_pairs / 10);
  const uint64_t small = (settings.slow_pairs - large) / 2;
  const uint64_t lists = (small + kSmallListRequests - 1) / kSmallListRequests;
  run(Family{"small lists (1-15 stubs)", 3, lists, kSmallListRequests, 1, 15, StubGrammar::Shape{}},
      shard, check);
  run(Family{"small lists on JSON and XML bodies", 5, lists, kSmallListRequests, 1, 15,
             StubGrammar::Shape{.body_focus = 70}},
      shard, check);
  if (large > 0) run(large_lists(4, large), shard, check);
}

TEST(Equivalence, FastPathsAgreeWithSlowPathsShard0) {
  run_slow_paths(0);
}

TEST(Equivalence, FastPathsAgreeWithSlowPathsShard1) {
  run_slow_paths(1);
}

// tcp imposters (docs/tcp.md): the tree dispatches on `data` as on a path, and a tcp request
// has no method, path, query, headers or body for other predicates to see. A tenth of the
// pairs, against the reference scan and the slow paths.
TEST(Equivalence, TcpStubListsAgreeWithFirstMatchScan) {
  const Settings settings;
  const uint64_t pairs = settings.pairs / 10;
  Family small{"small tcp lists",    11,  (pairs + kSmallListRequests - 1) / kSmallListRequests,
               kSmallListRequests,   1,   15,
               StubGrammar::Shape{}, true};
  run(small, kAllShards, Check{{tcp_interpreter_tier()}, std::nullopt});
  small.tag = 12;
  run(small, kAllShards, Check{{tcp_interpreter_tier()}, tcp_slow_interpreter_tier()});
  Family large = large_lists(13, large_pairs(settings) / 2);
  large.name = "large tcp lists";
  large.tcp = true;
  run(large, kAllShards, Check{{tcp_interpreter_tier()}, std::nullopt});
}

}  // namespace
}  // namespace rift::equivalence
