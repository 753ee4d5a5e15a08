// json_stream::parse_nlohmann must build exactly the tree nlohmann's parser builds (types, key
// order, repeated keys), and refuse exactly what it refuses: the admin API echoes these trees.
#include <gtest/gtest.h>

#include <string>

#include "compiler/json_stream.h"

namespace rift {
namespace {

void expect_same_as_nlohmann(const std::string& text) {
  const ir::Json expected = ir::Json::parse(text, nullptr, false);
  const ir::Json actual = json_stream::parse_nlohmann(text);
  ASSERT_EQ(actual.is_discarded(), expected.is_discarded()) << text;
  if (expected.is_discarded()) return;
  EXPECT_EQ(actual.dump(), expected.dump()) << text;
  EXPECT_EQ(actual, expected) << text;
}

// The types dump() cannot tell apart: is_number_unsigned() and friends read them.
void expect_same_types(const ir::Json& actual, const ir::Json& expected) {
  ASSERT_EQ(actual.type(), expected.type()) << expected.dump();
  if (!expected.is_structured()) return;
  ASSERT_EQ(actual.size(), expected.size());
  auto a = actual.begin();
  for (auto e = expected.begin(); e != expected.end(); ++e, ++a) expect_same_types(*a, *e);
}

TEST(JsonText, BuildsNlohmannsTree) {
  for (const char* text :
       {R"({"port": 4545, "protocol": "http", "stubs": [{"responses": [{"is": {}}]}]})",
        R"([0, 1, -1, 1.0, -0.0, 1e2, 1.5e-3, 9223372036854775807, 9223372036854775808])",
        R"([18446744073709551615, -9223372036854775808])", R"("caf\u00e9 \ud83d\ude00 \/")",
        R"({"b": 1, "a": 2, "b": 3})", R"({"a": {"x": 1}, "a": [true, false, null]})", "[]", "{}",
        "\"\"", "null", " \t\r\n 7 \n", "\"\xc3\xa9\""}) {
    expect_same_as_nlohmann(text);
    expect_same_types(json_stream::parse_nlohmann(text), ir::Json::parse(text));
  }
}

// simdjson reads "-0" as the integer 0, which cannot tell it from "0": the one type difference
// (unsigned where nlohmann says signed). Same value, same text, so nothing Rift prints differs.
TEST(JsonText, MinusZeroIsZero) {
  expect_same_as_nlohmann("-0");
  expect_same_as_nlohmann("[-0, {\"a\": -0}]");
  EXPECT_EQ(json_stream::parse_nlohmann("-0").dump(), "0");
}

TEST(JsonText, LeavesWhatSimdjsonRefusesToNlohmann) {
  // Beyond 64 bits (a double for both), a byte-order mark, an unpaired surrogate (refused).
  for (const char* text : {"[18446744073709551616]", "[-9223372036854775809]", "[1e400]",
                           "\xef\xbb\xbf{\"a\": 1}", R"("\ud800")", R"("\udc00x")"}) {
    expect_same_as_nlohmann(text);
  }
}

TEST(JsonText, RefusesWhatNlohmannRefuses) {
  for (const char* text : {"{", "{\"a\": 1,}", "[1 2]", "{} {}", "'a'", "\"\x01\"", "\"\xff\"",
                           "01", "1.", "-", "nul", "{\"a\" 1}", "[1,]", "//\n1"}) {
    expect_same_as_nlohmann(text);
    EXPECT_TRUE(json_stream::parse_nlohmann(text).is_discarded()) << text;
  }
}

// The one text nlohmann accepts and parse_nlohmann refuses: its lexer takes a NUL byte for the
// end of the text, where JSON.parse (Mountebank's admin API) answers 400.
TEST(JsonText, RefusesANulByteWhereNlohmannStops) {
  for (const std::string& text : {std::string("{\"a\": 1}\0", 9), std::string("[1]\0junk", 8)}) {
    EXPECT_FALSE(ir::Json::parse(text, nullptr, false).is_discarded());
    EXPECT_TRUE(json_stream::parse_nlohmann(text).is_discarded());
  }
}

}  // namespace
}  // namespace rift
