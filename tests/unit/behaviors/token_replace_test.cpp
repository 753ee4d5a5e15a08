#include "runtime/behaviors/token_replace.h"

#include <gtest/gtest.h>

namespace rift::behaviors {
namespace {

TEST(ReplaceAll, IsLiteralAndGlobal) {
  EXPECT_EQ(replace_all("a${x}b${x}", "${x}", JsText("1")), "a1b1");
  EXPECT_EQ(replace_all("a.*b", ".*", JsText("-")), "a-b");  // not a regex
  EXPECT_EQ(replace_all("none", "${x}", JsText("1")), "none");
}

TEST(ReplaceAll, UndefinedJoinsWithAComma) {
  // "a${x}b".split("${x}").join(undefined) === "a,b"
  EXPECT_EQ(replace_all("a${x}b", "${x}", std::nullopt), "a,b");
}

TEST(ReplaceAll, AnEmptyTokenGoesBetweenCharacters) {
  EXPECT_EQ(replace_all("ab\xC3\xA9", "", JsText("-")), "a-b-\xC3\xA9");
  EXPECT_EQ(replace_all("", "", JsText("-")), "");
}

TEST(ReplaceIndexed, IndexedTokensThenTheBareToken) {
  ir::Json response = {{"body", "${c} ${c}[0] ${c}[1] ${c}[2] ${c}[5]"}};
  replace_indexed(response, "${c}", {JsText("123"), JsText("1"), std::nullopt});
  // `${c}[5]` has no value 5, so the bare token inside it is replaced (as Mountebank does).
  EXPECT_EQ(response["body"], "123 123 1 , 123[5]");
}

TEST(ReplaceIndexed, NoValuesReplaceNothing) {
  ir::Json response = {{"body", "${c} ${c}[0]"}};
  replace_indexed(response, "${c}", {});
  EXPECT_EQ(response["body"], "${c} ${c}[0]");
}

TEST(ReplaceIndexed, EveryStringAndKeyAnywhere) {
  ir::Json response = ir::Json::parse(R"({
    "statusCode": "${c}",
    "headers": {"X-${c}": "v-${c}", "Y": ["${c}", 5]},
    "body": {"k-${c}": {"in": "${c}"}, "z": 1, "n": 7, "t": true}
  })");
  replace_indexed(response, "${c}", {JsText("201")});
  // Renamed keys move to the end of their object, as delete + add does in JavaScript.
  EXPECT_EQ(response.dump(), ir::Json::parse(R"({
    "statusCode": "201",
    "headers": {"Y": ["201", 5], "X-201": "v-201"},
    "body": {"z": 1, "n": 7, "t": true, "k-201": {"in": "201"}}
  })")
                                 .dump());
}

TEST(ReplaceIndexed, ARenamedKeyReplacesAnExistingOne) {
  ir::Json response = {{"body", {{"a", 1}, {"${c}", 2}, {"b", 3}}}};
  replace_indexed(response, "${c}", {JsText("a")});
  EXPECT_EQ(response["body"].dump(), R"({"a":2,"b":3})");
}

TEST(ReplaceIndexed, NonObjectResponsesAreLeftAlone) {
  ir::Json response = "${c}";
  replace_indexed(response, "${c}", {JsText("1")});
  EXPECT_EQ(response, "${c}");
}

TEST(ReplaceColumns, AllThreeQuotings) {
  ir::Json response = {{"body", R"(${row}["name"] ${row}['name'] ${row}[name] ${row}[other])"}};
  replace_columns(response, "${row}", {{"name", "Ann"}, {"id", "1"}});
  EXPECT_EQ(response["body"], "Ann Ann Ann ${row}[other]");
}

}  // namespace
}  // namespace rift::behaviors
