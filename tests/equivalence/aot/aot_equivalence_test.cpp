// The AOT tier against the reference scan: every corpus list's generated matcher (compiled into
// this binary at build time) must pick the same stub, or fail the same way, as a plain
// first-match scan and as the interpreter, on every generated request.
#include <gtest/gtest.h>

#include <iostream>

#include "codegen/compiled_matcher.h"
#include "tests/equivalence/aot/aot_corpus.h"
#include "tests/equivalence/reference_scan.h"
#include "tests/equivalence/shrink.h"
#include "tests/equivalence/tiers.h"

extern const rift::compiled::Module* const kAotModules[];
extern const size_t kAotModuleCount;

namespace rift::equivalence::aot {
namespace {

constexpr size_t kReported = 5;

Built build_aot(const compiled::Module* module, const std::vector<ir::Stub>& stubs) {
  auto tree = plan::build(stubs);
  if (auto* error = std::get_if<MbError>(&tree)) return *error;
  if (module == nullptr) return MbError{"corpus", "no module generated for a list that plans"};
  auto bound =
      compiled::bind(*module, stubs, std::get<std::shared_ptr<const plan::Tree>>(std::move(tree)));
  if (auto* reason = std::get_if<std::string>(&bound)) {
    return MbError{"corpus", "stale generated corpus: " + *reason};
  }
  return std::move(std::get<std::unique_ptr<Matcher>>(bound));
}

TEST(AotEquivalence, CompiledMatchersAgreeWithFirstMatchScanAndInterpreter) {
  const auto lists = corpus();
  ASSERT_EQ(kAotModuleCount, lists.size()) << "the generated corpus is stale; rebuild";
  uint64_t pairs = 0;
  uint64_t matched = 0;
  uint64_t aot_lists = 0;
  size_t reported = 0;
  for (size_t i = 0; i < lists.size(); ++i) {
    StubGrammar grammar(lists[i].seed);
    const auto stubs = stubs_of(lists[i], grammar);
    const ReferenceScan reference(stubs);
    const Built aot = build_aot(kAotModules[i], stubs);
    const Built interpreter = build_interpreter(stubs);
    if (auto* matcher = std::get_if<std::unique_ptr<Matcher>>(&aot)) {
      ASSERT_STREQ((*matcher)->tier(), "aot");
      ++aot_lists;
    }
    for (int r = 0; r < lists[i].requests; ++r) {
      const Request request = grammar.request(stubs);
      const Answer expected = reference.answer(request);
      const Answer compiled = answer_of(aot, request);
      const Answer interpreted = answer_of(interpreter, request);
      ++pairs;
      matched += expected.stub != kNoMatch;
      if (compiled == expected && interpreted == expected) continue;
      if (reported++ >= kReported) continue;
      ADD_FAILURE() << "list " << i << ", request " << r << ": reference " << describe(expected)
                    << ", aot " << describe(compiled) << ", interpreter " << describe(interpreted)
                    << "\n"
                    << reproduction(Tier{"interpreter", &build_interpreter}, Case{stubs, request});
    }
  }
  std::cout << "aot: " << pairs << " pairs over " << lists.size() << " lists (" << aot_lists
            << " compiled, the rest fail creation), " << matched << " matched a stub; " << reported
            << " disagreements\n";
  EXPECT_GE(pairs, 100'000u);
  EXPECT_EQ(reported, 0u);
}

}  // namespace
}  // namespace rift::equivalence::aot
