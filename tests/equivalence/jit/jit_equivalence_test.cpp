// The JIT tier against the reference scan: every list of the AOT corpus is compiled at test
// time through Clang and ORC, exactly as `rift start --engine jit` does after an admin edit,
// and must pick the same stub, or fail the same way, as a plain first-match scan and as the
// interpreter on every generated request.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <iostream>

#include "codegen/jit/jit_compiler.h"
#include "tests/equivalence/aot/aot_corpus.h"
#include "tests/equivalence/reference_scan.h"
#include "tests/equivalence/shrink.h"
#include "tests/equivalence/tcp_lists.h"
#include "tests/equivalence/tiers.h"

namespace rift::equivalence::jit {
namespace {

constexpr size_t kReported = 5;

rift::jit::JitCompiler& compiler() {
  static auto created = rift::jit::JitCompiler::create();
  if (auto* error = std::get_if<std::string>(&created)) {
    std::cerr << "this machine cannot JIT: " << *error << "\n";
    std::abort();
  }
  return *std::get<std::unique_ptr<rift::jit::JitCompiler>>(created);
}

Built build_jit_for(const std::vector<ir::Stub>& stubs, Protocol protocol) {
  auto tree = plan::build(stubs, protocol);
  if (auto* error = std::get_if<MbError>(&tree)) return *error;
  ir::Imposter config;
  config.port = 4545;
  config.protocol = protocol == Protocol::kTcp ? "tcp" : "http";
  config.stubs = stubs;
  auto compiled =
      compiler().compile(config, std::get<std::shared_ptr<const plan::Tree>>(std::move(tree)));
  if (auto* reason = std::get_if<std::string>(&compiled)) return MbError{"jit", *reason};
  return std::move(std::get<CompiledTier>(compiled).matcher);
}

Built build_jit(const std::vector<ir::Stub>& stubs) {
  return build_jit_for(stubs, Protocol::kHttp);
}

Built build_jit_tcp(const std::vector<ir::Stub>& stubs) {
  return build_jit_for(stubs, Protocol::kTcp);
}

TEST(JitEquivalence, JitMatchersAgreeWithFirstMatchScanAndInterpreter) {
  const auto lists = aot::corpus();
  uint64_t pairs = 0;
  uint64_t matched = 0;
  uint64_t jit_lists = 0;
  size_t reported = 0;
  for (size_t i = 0; i < lists.size(); ++i) {
    StubGrammar grammar(lists[i].seed);
    const auto stubs = aot::stubs_of(lists[i], grammar);
    const ReferenceScan reference(stubs);
    const Built jit = build_jit(stubs);
    const Built interpreter = build_interpreter(stubs);
    if (auto* matcher = std::get_if<std::unique_ptr<Matcher>>(&jit)) {
      ASSERT_STREQ((*matcher)->tier(), "jit");
      ++jit_lists;
    } else if (std::get<MbError>(jit).code == "jit") {
      ADD_FAILURE() << "list " << i << " did not JIT: " << std::get<MbError>(jit).message;
      continue;
    }
    for (int r = 0; r < lists[i].requests; ++r) {
      const Request request = grammar.request(stubs);
      const Answer expected = reference.answer(request);
      const Answer compiled = answer_of(jit, request);
      const Answer interpreted = answer_of(interpreter, request);
      ++pairs;
      matched += expected.stub != kNoMatch;
      if (compiled == expected && interpreted == expected) continue;
      if (reported++ >= kReported) continue;
      ADD_FAILURE() << "list " << i << ", request " << r << ": reference " << describe(expected)
                    << ", jit " << describe(compiled) << ", interpreter " << describe(interpreted)
                    << "\n"
                    << reproduction(Tier{"jit", &build_jit}, Case{stubs, request});
    }
    compiler().collect();  // the previous list's code, retired when its matcher went
  }
  compiler().collect();
  std::cout << "jit: " << pairs << " pairs over " << lists.size() << " lists (" << jit_lists
            << " compiled, the rest fail creation), " << matched << " matched a stub; " << reported
            << " disagreements\n";
  EXPECT_GE(pairs, 100'000u);
  EXPECT_GT(jit_lists, lists.size() / 2);
  EXPECT_EQ(reported, 0u);
  EXPECT_EQ(compiler().live_units(), 0u) << "retired code was not freed";
}

// A tcp imposter's tree (docs/tcp.md) compiled: the same generated code, looking up `data` where
// an http tree looks up the path. The first lists of the corpus, made tcp lists.
TEST(JitEquivalence, TcpJitMatchersAgreeWithFirstMatchScanAndInterpreter) {
  constexpr size_t kTcpLists = 24;
  const auto lists = aot::corpus();
  uint64_t pairs = 0;
  size_t reported = 0;
  for (size_t i = 0; i < std::min(kTcpLists, lists.size()); ++i) {
    StubGrammar grammar(lists[i].seed);
    const auto drawn = aot::stubs_of(lists[i], grammar);
    const auto stubs = as_tcp(drawn);
    const ReferenceScan reference(stubs);
    const Built jit = build_jit_tcp(stubs);
    const Built interpreter = tcp_interpreter_tier().build(stubs);
    if (auto* matcher = std::get_if<std::unique_ptr<Matcher>>(&jit)) {
      ASSERT_STREQ((*matcher)->tier(), "jit");
    } else if (std::get<MbError>(jit).code == "jit") {
      ADD_FAILURE() << "tcp list " << i << " did not JIT: " << std::get<MbError>(jit).message;
      continue;
    }
    for (int r = 0; r < lists[i].requests; ++r) {
      const Request request = as_tcp(grammar.request(drawn));
      const Answer expected = reference.answer(request);
      const Answer compiled = answer_of(jit, request);
      const Answer interpreted = answer_of(interpreter, request);
      ++pairs;
      if (compiled == expected && interpreted == expected) continue;
      if (reported++ >= kReported) continue;
      ADD_FAILURE() << "tcp list " << i << ", request " << r << ": reference " << describe(expected)
                    << ", jit " << describe(compiled) << ", interpreter " << describe(interpreted)
                    << "\n"
                    << reproduction(Tier{"jit (tcp)", &build_jit_tcp}, Case{stubs, request});
    }
    compiler().collect();
  }
  compiler().collect();
  std::cout << "jit (tcp): " << pairs << " pairs, " << reported << " disagreements\n";
  EXPECT_GT(pairs, 0u);
  EXPECT_EQ(reported, 0u);
}

}  // namespace
}  // namespace rift::equivalence::jit
