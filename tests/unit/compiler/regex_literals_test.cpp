#include "compiler/regex_literals.h"

#include <gtest/gtest.h>

namespace rift {
namespace {

TEST(RegexLiterals, AnchoredHeadAndLongestRequiredRun) {
  const auto literals = regex_literals("^/svc/12/items/\\d+$", false);
  EXPECT_EQ(literals.head, "/svc/12/items/");
  EXPECT_EQ(literals.required, "/svc/12/items/");
}

TEST(RegexLiterals, UnanchoredPatternHasNoHeadButARequiredLiteral) {
  const auto literals = regex_literals("/regex/pattern100/[a-zA-Z0-9]+", false);
  EXPECT_EQ(literals.head, "");
  EXPECT_EQ(literals.required, "/regex/pattern100/");
}

TEST(RegexLiterals, QuantifiersThatAllowZeroDropTheCharacter) {
  EXPECT_EQ(regex_literals("^/ab?c", false).head, "/a");
  EXPECT_EQ(regex_literals("^/ab*c", false).head, "/a");
  EXPECT_EQ(regex_literals("^/ab{0,3}c", false).head, "/a");
  // One b is certain, but what follows it is not adjacent.
  EXPECT_EQ(regex_literals("^/ab+c", false).head, "/ab");
  EXPECT_EQ(regex_literals("^/ab{2}cdef", false).required, "cdef");
}

TEST(RegexLiterals, GroupsClassesAndEscapesEndARun) {
  EXPECT_EQ(regex_literals("^/a(bc)?/orders", false).required, "/orders");
  EXPECT_EQ(regex_literals("^/a[xyz]/orders", false).head, "/a");
  EXPECT_EQ(regex_literals("^\\/api\\.v1\\/x", false).head, "/api.v1/x");
  EXPECT_EQ(regex_literals("^/a\\dbcd", false).required, "bcd");
  EXPECT_EQ(regex_literals("^/a.bcd", false).required, "bcd");
}

TEST(RegexLiterals, AlternationAnywhereGivesNothing) {
  EXPECT_EQ(regex_literals("^/a|/b", false).head, "");
  EXPECT_EQ(regex_literals("/x/(a|b)/yyyy", false).required, "");
  // ... but a | inside a class is a plain character.
  EXPECT_EQ(regex_literals("^/[|]abc", false).required, "abc");
}

TEST(RegexLiterals, CaselessMatchingFoldsAndAvoidsLettersWithNonAsciiPartners) {
  EXPECT_EQ(regex_literals("^/ORDERS/", true).head, "/order");
  EXPECT_EQ(regex_literals("^/ORDERS/", false).head, "/orders/");
  EXPECT_EQ(regex_literals("/kelvin", true).required, "elvin");
}

TEST(RegexLiterals, MalformedSourceGivesNothing) {
  EXPECT_EQ(regex_literals("^/a(bc", false).head, "");
  EXPECT_EQ(regex_literals("^/a[bc", false).required, "");
}

}  // namespace
}  // namespace rift
