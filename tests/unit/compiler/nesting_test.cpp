// The nesting bound (compiler/nesting.h): every JSON entry point refuses one level past
// kMaxDepth, and everything that walks a tree at the limit fits in a small stack.
#include "compiler/nesting.h"

#include <gtest/gtest.h>
#include <pthread.h>

#include <cstddef>
#include <functional>
#include <string>

#include "compiler/js_value.h"
#include "compiler/json_stream.h"
#include "compiler/jsonpath.h"

namespace rift {
namespace {

std::string arrays(std::size_t depth) {
  return std::string(depth, '[') + "true" + std::string(depth, ']');
}

std::string objects(std::size_t depth) {
  std::string out;
  for (std::size_t i = 0; i < depth; ++i) out += "{\"a\":";
  out += "true";
  out += std::string(depth, '}');
  return out;
}

TEST(Nesting, ScanCountsArraysAndObjectsNotStrings) {
  EXPECT_FALSE(nesting::json_exceeds(arrays(nesting::kMaxDepth)));
  EXPECT_TRUE(nesting::json_exceeds(arrays(nesting::kMaxDepth + 1)));
  EXPECT_FALSE(nesting::json_exceeds(objects(nesting::kMaxDepth)));
  EXPECT_TRUE(nesting::json_exceeds(objects(nesting::kMaxDepth + 1)));
  EXPECT_FALSE(nesting::json_exceeds("\"" + std::string(100000, '[') + "\""));
  EXPECT_FALSE(nesting::json_exceeds(R"(["\"[[[", 1])", 2));
  EXPECT_TRUE(nesting::json_exceeds(std::string(1000000, '[')));  // unclosed: still refused
  // An empty innermost container is no level, as simdjson counts.
  EXPECT_FALSE(nesting::json_exceeds("[[]]", 1));
  EXPECT_TRUE(nesting::json_exceeds("[[ 1]]", 1));
  EXPECT_EQ(json_stream::parse(std::string(nesting::kMaxDepth + 1, '[') +
                               std::string(nesting::kMaxDepth + 1, ']'))
                .has_value(),
            !nesting::json_exceeds(std::string(nesting::kMaxDepth + 1, '[') +
                                   std::string(nesting::kMaxDepth + 1, ']')));
}

TEST(Nesting, EveryParserAcceptsTheLimitAndRefusesOneMore) {
  for (const auto& make : {arrays, objects}) {
    const std::string at = make(nesting::kMaxDepth);
    const std::string over = make(nesting::kMaxDepth + 1);
    EXPECT_TRUE(json_stream::parse(at));
    EXPECT_FALSE(json_stream::parse(over));
    EXPECT_TRUE(json_stream::parse_plainly(at));
    EXPECT_FALSE(json_stream::parse_plainly(over));
    EXPECT_FALSE(json_stream::parse_nlohmann(at).is_discarded());
    EXPECT_TRUE(json_stream::parse_nlohmann(over).is_discarded());
  }
}

TEST(Nesting, NumbersSimdjsonCannotReadTakeTheBoundedFallback) {
  // A 30-digit integer sends the text to nlohmann's parser; the scan still guards it.
  const std::string big = "123456789012345678901234567890";
  EXPECT_TRUE(json_stream::parse("[" + big + "," + arrays(nesting::kMaxDepth - 1) + "]"));
  EXPECT_FALSE(json_stream::parse("[" + big + "," + arrays(nesting::kMaxDepth) + "]"));
  EXPECT_TRUE(json_stream::parse_nlohmann("[" + big + "," + arrays(1000000) + "]").is_discarded());
}

TEST(Nesting, DeepBodiesAreNotJsonToPredicates) {
  const predicates::Transform plain{};
  const std::string over = objects(100000);
  EXPECT_EQ(json_stream::walk(over, {"a"}, plain).outcome, json_stream::Outcome::kNotJson);
  EXPECT_EQ(json_stream::members(over, {"a"}, plain).outcome, json_stream::Outcome::kNotJson);
}

TEST(Nesting, FilterExpressionsAreBounded) {
  const std::string nots(100000, '!');
  EXPECT_EQ(jsonpath::Path::parse("$[?(" + nots + "@.a)]").index(), 1u);
  const std::string parens = std::string(100000, '(') + "@.a" + std::string(100000, ')');
  EXPECT_EQ(jsonpath::Path::parse("$[?(" + parens + ")]").index(), 1u);
  std::string chain = "@.a";
  for (int i = 0; i < 100000; ++i) chain += "||@.a";
  EXPECT_EQ(jsonpath::Path::parse("$[?(" + chain + ")]").index(), 1u);
  EXPECT_EQ(jsonpath::Path::parse("$[?(!!@.a || (@.b && @.c))]").index(), 0u);
}

// A sixteenth of a worker's stack, or a quarter of it under AddressSanitizer, whose redzones and
// unoptimised frames make every level of a walk several times deeper (1 MiB is the least that
// fits there today).
#if defined(__SANITIZE_ADDRESS__)
constexpr std::size_t kSmallStack = 2048 * 1024;
#else
constexpr std::size_t kSmallStack = 512 * 1024;
#endif

// Runs `body` on a thread whose stack is kSmallStack.
void on_small_stack(const std::function<void()>& body) {
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, kSmallStack);
  pthread_t thread;
  auto run = [](void* argument) -> void* {
    (*static_cast<const std::function<void()>*>(argument))();
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attributes, run, const_cast<std::function<void()>*>(&body)),
            0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attributes);
}

TEST(Nesting, WalksAtTheLimitFitInASmallStack) {
  on_small_stack([] {
    for (const auto& make : {arrays, objects}) {
      const std::string text = make(nesting::kMaxDepth);
      const auto parsed = json_stream::parse(text);
      ASSERT_TRUE(parsed);
      const ir::Json copy = *parsed;
      EXPECT_EQ(copy, *parsed);
      EXPECT_EQ(copy.dump().size(), text.size());
      EXPECT_EQ(js::stringify(copy).size(), text.size());
      EXPECT_GT(js::stringify(copy, 2).size(), text.size());
      EXPECT_FALSE(jsonpath::Path::parse("$..a").index());
      const auto path = std::get<jsonpath::Path>(jsonpath::Path::parse("$..a"));
      (void)path.select(copy);
    }
  });
}

}  // namespace
}  // namespace rift
