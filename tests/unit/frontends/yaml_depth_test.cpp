// The YAML pre-scan (frontends/yaml_depth.h) and the bounded converter behind it.
#include "frontends/yaml_depth.h"

#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "compiler/nesting.h"
#include "frontends/yaml_to_json.h"

namespace rift::frontends {
namespace {

std::string block_mappings(std::size_t depth) {
  std::string out;
  for (std::size_t i = 0; i < depth; ++i) out += std::string(i, ' ') + "a:\n";
  out += std::string(depth, ' ') + "b: 1\n";
  return out;
}

TEST(YamlDepth, CountsFlowBracketsBlockLevelsAndCompactIndicators) {
  EXPECT_FALSE(yaml_nesting_exceeds("a: [1, {b: [2]}]\n", 4));
  EXPECT_TRUE(yaml_nesting_exceeds("a: [1, {b: [2]}]\n", 3));
  EXPECT_TRUE(yaml_nesting_exceeds(std::string(100000, '['), nesting::kMaxDepth));
  EXPECT_TRUE(yaml_nesting_exceeds(std::string(10, '[') + "\n" + std::string(10, '['), 19));
  EXPECT_TRUE(yaml_nesting_exceeds(block_mappings(1000), nesting::kMaxDepth));
  std::string dashes;
  for (int i = 0; i < 1000; ++i) dashes += "- ";
  EXPECT_TRUE(yaml_nesting_exceeds(dashes + "x\n", nesting::kMaxDepth));
}

TEST(YamlDepth, SkipsQuotedScalarsCommentsAndBlockScalars) {
  const std::string brackets(1000, '[');
  EXPECT_FALSE(yaml_nesting_exceeds("a: \"" + brackets + "\"\n", 8));
  EXPECT_FALSE(yaml_nesting_exceeds("a: '" + brackets + "'\n", 8));
  EXPECT_FALSE(yaml_nesting_exceeds("a: 1 # " + brackets + "\n", 8));
  EXPECT_FALSE(yaml_nesting_exceeds("a: |\n  " + brackets + "\n  more\nb: 2\n", 8));
  EXPECT_FALSE(yaml_nesting_exceeds("a: >-\n  " + brackets + "\n", 8));
}

TEST(YamlDepth, RealConfigsPass) {
  const std::string config = R"(imposters:
  - port: 4545
    protocol: http
    stubs:
      - predicates:
          - equals: { method: GET, path: "/a[0]" }
        responses:
          - is:
              statusCode: 200
              body: |
                { "deep": [[[[["text"]]]]] }
)";
  EXPECT_FALSE(yaml_nesting_exceeds(config, 16));
  EXPECT_TRUE(std::holds_alternative<std::vector<ir::Json>>(yaml_documents_to_json(config)));
}

TEST(YamlDepth, TooDeepTextsAreErrorsNotCrashes) {
  const auto deep = yaml_documents_to_json(std::string(1000000, '['));
  ASSERT_TRUE(std::holds_alternative<YamlError>(deep));
  EXPECT_EQ(std::get<YamlError>(deep).message, nesting::limit_message());
  const auto blocks = yaml_documents_to_json(block_mappings(2000));
  EXPECT_TRUE(std::holds_alternative<YamlError>(blocks));
}

TEST(YamlDepth, AliasesCannotBlowUpTheTree) {
  std::string laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  char previous = 'a';
  for (char name = 'b'; name <= 'k'; ++name) {
    laughs += std::string(1, name) + ": &" + name + " [";
    for (int i = 0; i < 10; ++i) laughs += std::string(i ? ", *" : "*") + previous;
    laughs += "]\n";
    previous = name;
  }
  const auto result = yaml_documents_to_json(laughs);
  ASSERT_TRUE(std::holds_alternative<YamlError>(result));
  EXPECT_NE(std::get<YamlError>(result).message.find("aliases"), std::string::npos);
}

}  // namespace
}  // namespace rift::frontends
