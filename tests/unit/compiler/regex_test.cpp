#include "compiler/regex.h"

#include <gtest/gtest.h>

namespace rift {
namespace {

Regex compile(std::string_view source, bool ignore_case = false) {
  auto result = Regex::compile(source, ignore_case);
  EXPECT_EQ(result.index(), 0u) << (result.index() == 1 ? std::get<1>(result) : "");
  return std::get<Regex>(std::move(result));
}

TEST(Regex, SearchesUnanchored) {
  EXPECT_TRUE(compile("b").test("abc"));
  EXPECT_FALSE(compile("^b").test("abc"));
}

}  // namespace
}  // namespace rift
