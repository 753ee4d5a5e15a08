// The literals the planner reads off a `matches` pattern: its head (a path prefix or exact path)
// and, without one, the literal every match must contain.
#include "compiler/regex_literals.h"

#include <gtest/gtest.h>

namespace rift {
namespace {

std::string head(const char* pattern) {
  auto found = regex_head(pattern);
  if (!found) return "(none)";
  return found->literal + (found->whole ? " (whole)" : "");
}

TEST(RegexHead, PlainCharactersAndEscapedPunctuation) {
  EXPECT_EQ(head("^/api/v1/"), "/api/v1/");
  EXPECT_EQ(head(R"(^\/api\/v1\.json)"), "/api/v1.json");
  EXPECT_EQ(head(R"(^/a\-b_c~d)"), "/a-b_c~d");
  EXPECT_EQ(head(R"(^/a\ b)"), "/a b");  // an escaped space is a space
  EXPECT_EQ(head("^/users/[0-9]+$"), "/users/");
  EXPECT_EQ(head(R"(^/users/\d+)"), "/users/");
  EXPECT_EQ(head("^/a(b)?"), "/a");
  EXPECT_EQ(head("^/a.b"), "/a");
  EXPECT_EQ(head("^/A$"), "/A (whole)");
  EXPECT_EQ(head(R"(^/a\$)"), "/a$");
  EXPECT_EQ(head("^/svc/12/items/\\d+$"), "/svc/12/items/");
}

TEST(RegexHead, AQuantifierTakesTheLastCharacter) {
  EXPECT_EQ(head("^/ab*"), "/a");
  EXPECT_EQ(head("^/ab+"), "/a");
  EXPECT_EQ(head("^/ab?"), "/a");
  EXPECT_EQ(head("^/ab{2}"), "/a");
  EXPECT_EQ(head(R"(^/a\.*)"), "/a");
  EXPECT_EQ(head("^/?x"), "(none)");
  EXPECT_EQ(head("^/ab?$"), "/a");  // not whole: the quantifier decides
}

TEST(RegexHead, Refused) {
  EXPECT_EQ(head("/api"), "(none)");  // not anchored
  EXPECT_EQ(head("^"), "(none)");
  EXPECT_EQ(head("^^/a"), "(none)");
  EXPECT_EQ(head(R"(^\d)"), "(none)");
  EXPECT_EQ(head(R"(^\u002f)"), "(none)");
  EXPECT_EQ(head("^/a|/b"), "(none)");
  EXPECT_EQ(head("^/(a|b)"), "(none)");
  EXPECT_EQ(head("^/\xC3\xA9"), "(none)");
  EXPECT_EQ(head("^/a\tb"), "(none)");
  EXPECT_EQ(head("^[/]a"), "(none)");
}

std::string required(const char* pattern, bool caseless = false) {
  return regex_required_literal(pattern, caseless);
}

TEST(RegexRequiredLiteral, LongestRequiredRun) {
  EXPECT_EQ(required("^/svc/12/items/\\d+$"), "/svc/12/items/");
  EXPECT_EQ(required("/regex/pattern100/[a-zA-Z0-9]+"), "/regex/pattern100/");
}

TEST(RegexRequiredLiteral, QuantifiersThatAllowZeroDropTheCharacter) {
  EXPECT_EQ(required("^/ab?c"), "/a");
  EXPECT_EQ(required("^/ab*cde"), "cde");
  EXPECT_EQ(required("^/ab{0,3}c"), "/a");
  // One b is certain, but what follows it is not adjacent.
  EXPECT_EQ(required("^/ab+c"), "/ab");
  EXPECT_EQ(required("^/ab{2}cdef"), "cdef");
}

TEST(RegexRequiredLiteral, GroupsClassesAndEscapesEndARun) {
  EXPECT_EQ(required("^/a(bc)?/orders"), "/orders");
  EXPECT_EQ(required("^/a[xyz]/b"), "/a");
  EXPECT_EQ(required("^\\/api\\.v1\\/x"), "/api.v1/x");
  EXPECT_EQ(required("^/a\\dbcd"), "bcd");
  EXPECT_EQ(required("^/a.bcd"), "bcd");
}

TEST(RegexRequiredLiteral, AlternationAnywhereGivesNothing) {
  EXPECT_EQ(required("^/a|/b"), "");
  EXPECT_EQ(required("/x/(a|b)/yyyy"), "");
  // ... but a | inside a class is a plain character.
  EXPECT_EQ(required("^/[|]abc"), "abc");
}

TEST(RegexRequiredLiteral, CaselessMatchingFoldsAndAvoidsLettersWithNonAsciiPartners) {
  EXPECT_EQ(required("^/ORDERS/", true), "/order");
  EXPECT_EQ(required("^/ORDERS/"), "/orders/");
  EXPECT_EQ(required("/kelvin", true), "elvin");
}

TEST(RegexRequiredLiteral, MalformedSourceGivesNothing) {
  EXPECT_EQ(required("^/abcd(bc"), "");
  EXPECT_EQ(required("^/a[bc"), "");
}

}  // namespace
}  // namespace rift
