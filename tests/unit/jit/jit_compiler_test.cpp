// The JIT tier in-process: generated C++ through Clang and ORC into a serving Matcher, and its
// code freed once the last matcher using it is gone.
#include "codegen/jit/jit_compiler.h"

#include <gtest/gtest.h>

#include "compiler/predicate_context.h"

namespace rift::jit {
namespace {

ir::Stub stub(ir::Json fields, ir::Op op = ir::Op::kEquals) {
  ir::Predicate predicate;
  predicate.op = op;
  predicate.fields = std::move(fields);
  ir::Stub out;
  out.predicates.push_back(std::move(predicate));
  return out;
}

ir::Imposter imposter(std::vector<ir::Stub> stubs) {
  ir::Imposter out;
  out.port = 4545;
  out.protocol = "http";
  out.stubs = std::move(stubs);
  return out;
}

std::shared_ptr<const plan::Tree> plan_of(const ir::Imposter& config) {
  auto tree = plan::build(config.stubs);
  EXPECT_TRUE(std::holds_alternative<std::shared_ptr<const plan::Tree>>(tree));
  return std::get<std::shared_ptr<const plan::Tree>>(tree);
}

Request request(std::string method, std::string path, KeyValues query = {}) {
  Request out;
  out.method = std::move(method);
  out.path = std::move(path);
  out.query = std::move(query);
  return out;
}

int match(const Matcher& matcher, const Request& request) {
  RequestContext context(request);
  return matcher.match(context);
}

JitCompiler& compiler() {
  static auto created = JitCompiler::create();
  if (auto* error = std::get_if<std::string>(&created)) {
    ADD_FAILURE() << "this machine cannot JIT: " << *error;
    std::abort();
  }
  return *std::get<std::unique_ptr<JitCompiler>>(created);
}

TEST(JitCompiler, CompiledMatcherAnswersLikeMountebank) {
  const auto config = imposter({
      stub({{"method", "GET"}, {"path", "/orders"}}),
      stub({{"path", "/orders"}, {"query", {{"status", "open"}}}}),
      stub({{"path", "/ord"}}, ir::Op::kStartsWith),
      stub({{"path", "\\d+$"}}, ir::Op::kMatches),
      stub({{"path", "items"}}, ir::Op::kContains),
  });
  auto compiled = compiler().compile(config, plan_of(config));
  ASSERT_TRUE(std::holds_alternative<CompiledTier>(compiled)) << std::get<std::string>(compiled);
  const auto& tier = std::get<CompiledTier>(compiled);
  EXPECT_STREQ(tier.matcher->tier(), "jit");
  EXPECT_GT(tier.code_bytes, 0u);
  EXPECT_EQ(match(*tier.matcher, request("GET", "/orders")), 0);
  EXPECT_EQ(match(*tier.matcher, request("GET", "/ORDERS")), 0);  // case-insensitive by default
  EXPECT_EQ(match(*tier.matcher, request("POST", "/orders", {{"status", "open"}})), 1);
  EXPECT_EQ(match(*tier.matcher, request("POST", "/orders")), 2);
  EXPECT_EQ(match(*tier.matcher, request("PUT", "/x/42")), 3);
  EXPECT_EQ(match(*tier.matcher, request("PUT", "/lineitems/x")), 4);
  EXPECT_EQ(match(*tier.matcher, request("PUT", "/nothing")), kNoMatch);
}

TEST(JitCompiler, ReplacedCodeIsFreedOnlyAfterItsLastMatcherIsGone) {
  auto& jit = compiler();
  jit.collect();
  const size_t before = jit.live_units();
  const auto config = imposter({stub({{"path", "/a"}})});
  auto first = std::get<CompiledTier>(jit.compile(config, plan_of(config)));
  auto second = std::get<CompiledTier>(jit.compile(config, plan_of(config)));
  EXPECT_EQ(jit.live_units(), before + 2);
  first.matcher.reset();
  EXPECT_EQ(jit.live_units(), before + 2) << "freed before collect(), on the dropping thread";
  jit.collect();
  EXPECT_EQ(jit.live_units(), before + 1);
  EXPECT_EQ(match(*second.matcher, request("GET", "/a")), 0);  // the survivor still runs
}

TEST(JitCompiler, EmptyStubListCompiles) {
  const auto config = imposter({});
  auto compiled = compiler().compile(config, plan_of(config));
  ASSERT_TRUE(std::holds_alternative<CompiledTier>(compiled)) << std::get<std::string>(compiled);
  EXPECT_EQ(match(*std::get<CompiledTier>(compiled).matcher, request("GET", "/")), kNoMatch);
}

}  // namespace
}  // namespace rift::jit
