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

namespace rift {
namespace {

TEST(Regex, JavaScriptFlavour) {
  EXPECT_TRUE(compile("END$", true).test("the End"));
  EXPECT_FALSE(compile("END$").test("the End"));
  EXPECT_FALSE(compile("d$").test("end\n"));  // `$` only at the very end
  EXPECT_TRUE(compile("(?<=a)b").test("ab"));
  EXPECT_TRUE(compile("(?<year>\\d{4})").test("in 2024"));
  EXPECT_TRUE(compile("[^]").test("\n"));
  EXPECT_FALSE(compile("[]").test("a"));
  EXPECT_TRUE(compile("\\u0041").test("A"));
  EXPECT_TRUE(compile("\\x41").test("A"));
  EXPECT_TRUE(compile("\\p").test("p"));  // identity escape without the u flag
  EXPECT_TRUE(compile("\\v").test("\v"));
  EXPECT_TRUE(compile("(a)|\\1b").test("b"));  // unset backreference matches empty
  EXPECT_EQ(Regex::compile("(?i)a", false).index(), 1u);
  EXPECT_EQ(Regex::compile("a++", false).index(), 1u);
  EXPECT_EQ(Regex::compile("(", false).index(), 1u);
}

TEST(Regex, ExecGivesGroups) {
  const Regex regex = compile("(\\d)(\\d)\\d|(x)");
  const std::string subject = "ab123";
  auto match = regex.exec(subject);
  ASSERT_TRUE(match);
  EXPECT_EQ(match->group(subject, 0), "123");
  EXPECT_EQ(match->group(subject, 1), "1");
  EXPECT_EQ(match->group(subject, 2), "2");
  EXPECT_FALSE(match->group(subject, 3));
  EXPECT_FALSE(match->group(subject, 5));
  EXPECT_FALSE(regex.exec(subject, 3));
}

TEST(Regex, ReplaceAllLikeJavaScript) {
  EXPECT_EQ(compile("\\d+").replace_all("1This is 3a 2test", ""), "This is a test");
  EXPECT_EQ(compile("x*").replace_all("abc", "-"), "-a-b-c-");
  EXPECT_EQ(compile("A", true).replace_all("aAb", ""), "b");
  EXPECT_EQ(compile("").replace_all("h\xC3\xA9", "."), ".h.\xC3\xA9.");
}

}  // namespace
}  // namespace rift
