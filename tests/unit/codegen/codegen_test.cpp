// Unit tests for the C++ emitter. What the emitted code *does* is tested by compiling it: the
// AOT equivalence test (tests/equivalence/aot) and the frozen-mock end-to-end tests.
#include <gtest/gtest.h>

#include "codegen/compiled_matcher.h"
#include "codegen/cpp_text.h"
#include "codegen/emit_matcher.h"
#include "codegen/emit_tables.h"

namespace rift::codegen {
namespace {

ir::Stub stub(ir::Json fields, ir::Op op = ir::Op::kEquals) {
  ir::Predicate predicate;
  predicate.op = op;
  predicate.fields = std::move(fields);
  ir::Stub out;
  out.predicates.push_back(std::move(predicate));
  return out;
}

std::shared_ptr<const plan::Tree> plan_of(const std::vector<ir::Stub>& stubs) {
  auto tree = plan::build(stubs);
  EXPECT_TRUE(std::holds_alternative<std::shared_ptr<const plan::Tree>>(tree));
  return std::get<std::shared_ptr<const plan::Tree>>(tree);
}

TEST(CppText, StringLiteralsEscapeEveryAwkwardByte) {
  EXPECT_EQ(cpp_string("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(cpp_string(std::string("\n\x01\xff", 3)), "\"\\012\\001\\377\"");
  // An octal escape never swallows a following digit.
  EXPECT_EQ(cpp_string(std::string("\x01") + "7"), "\"\\0017\"");
}

TEST(CppText, CommentsCannotEndEarlyOrContinue) {
  EXPECT_EQ(comment_text("a */ b"), "a *_ b");
  EXPECT_EQ(comment_text("line\nbreak"), "line break");
  EXPECT_EQ(comment_text("ends in \\"), "ends in \\.");
  EXPECT_EQ(comment_text(std::string(200, 'x'), 10), std::string(10, 'x') + "...");
}

TEST(CppText, IdentifiersAndRe2cLiterals) {
  EXPECT_EQ(identifier("M-SEARCH"), "M_SEARCH");
  EXPECT_EQ(re2c_folded_literal("/it's\\"), "'/it\\'s\\\\'");
  EXPECT_EQ(re2c_folded_literal(std::string("/a\x01")), "");
  EXPECT_EQ(re2c_folded_literal(""), "");
}

TEST(EmitTables, HashTablesAreAtMostHalfFullAndNameWhatTheyHold) {
  const std::string table =
      string_table("kPaths", {{"/a", 0}, {"/b", 1}, {"/c", 2}}, "method GET: exact paths");
  EXPECT_NE(table.find("3 keys in 8 slots"), std::string::npos) << table;
  EXPECT_NE(table.find("\"/b\", 2, 1}"), std::string::npos) << table;
  EXPECT_NE(table.find("const StringTable kPaths = {kPaths_slots, 7};"), std::string::npos);
}

TEST(EmitMatcher, NamesStubsAndPredicatesAndIsDeterministic) {
  const std::vector<ir::Stub> stubs = {
      stub({{"method", "GET"}, {"path", "/orders"}}),
      stub({{"path", "/orders"}, {"query", {{"status", "open"}}}}),
      stub({{"body", "rush"}}, ir::Op::kContains),
  };
  const auto tree = plan_of(stubs);
  const EmittedMatcher first = emit_matcher(*tree, stubs, "imposter_4545", 4545, "imposter 4545");
  const EmittedMatcher again = emit_matcher(*tree, stubs, "imposter_4545", 4545, "imposter 4545");
  EXPECT_EQ(first.source, again.source);
  EXPECT_EQ(first.symbol, "kModule_imposter_4545");
  EXPECT_NE(first.source.find("// stub 2: contains {\"body\":\"rush\"}"), std::string::npos)
      << first.source;
  EXPECT_NE(first.source.find("\"imposter_4545\", 4545,"), std::string::npos);
  EXPECT_NE(first.source.find("#include \"codegen/compiled_module.h\""), std::string::npos);
}

TEST(EmitMatcher, SmallPathSetsBecomeRe2cAndLargeOnesTables) {
  std::vector<ir::Stub> stubs;
  for (int i = 0; i < 80; ++i) stubs.push_back(stub({{"path", "/p" + std::to_string(i)}}));
  const auto tree = plan_of(stubs);
  EmitOptions small;
  small.re2c_max_keys = 100;
  EXPECT_TRUE(emit_matcher(*tree, stubs, "u", 1, "u", small).uses_re2c);
  EmitOptions large;
  large.re2c_max_keys = 10;
  const EmittedMatcher tabled = emit_matcher(*tree, stubs, "u", 1, "u", large);
  EXPECT_FALSE(tabled.uses_re2c);
  EXPECT_NE(tabled.source.find("80 keys in 256 slots"), std::string::npos);
}

TEST(CompiledMatcher, FingerprintCoversEveryPredicateDetail) {
  std::vector<ir::Stub> stubs = {stub({{"path", "/a"}})};
  const uint64_t base = compiled::fingerprint(stubs);
  EXPECT_EQ(base, compiled::fingerprint(stubs));
  stubs[0].predicates[0].case_sensitive = true;
  EXPECT_NE(base, compiled::fingerprint(stubs));
  stubs[0].predicates[0].case_sensitive = false;
  stubs[0].predicates[0].fields["path"] = "/b";
  EXPECT_NE(base, compiled::fingerprint(stubs));
  stubs[0].predicates[0].fields["path"] = "/a";
  stubs.push_back(stub({{"path", "/a"}}));
  EXPECT_NE(base, compiled::fingerprint(stubs));
}

TEST(CompiledMatcher, BindRefusesAModuleBuiltForOtherStubsOrAnotherAbi) {
  const std::vector<ir::Stub> stubs = {stub({{"path", "/a"}})};
  const auto tree = plan_of(stubs);
  compiled::Module module{compiled::kAbiVersion,
                          "unit",
                          1,
                          compiled::fingerprint(stubs),
                          1,
                          nullptr,
                          nullptr,
                          nullptr,
                          nullptr,
                          0};
  EXPECT_TRUE(
      std::holds_alternative<std::unique_ptr<Matcher>>(compiled::bind(module, stubs, tree)));
  module.fingerprint ^= 1;
  auto stale = compiled::bind(module, stubs, tree);
  ASSERT_TRUE(std::holds_alternative<std::string>(stale));
  EXPECT_NE(std::get<std::string>(stale).find("different stub list"), std::string::npos);
  module.fingerprint ^= 1;
  module.abi_version += 1;
  EXPECT_TRUE(std::holds_alternative<std::string>(compiled::bind(module, stubs, tree)));
}

}  // namespace
}  // namespace rift::codegen
