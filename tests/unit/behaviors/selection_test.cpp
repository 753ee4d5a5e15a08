#include "runtime/behaviors/selection.h"

#include <gtest/gtest.h>

namespace rift::behaviors {
namespace {

const ir::Json kRequest = ir::Json::parse(R"({
  "requestFrom": "127.0.0.1:5000", "method": "POST", "path": "/accounts/123/x",
  "query": {"q": ["first", "second"], "Single": "s"},
  "headers": {"x-request": "abc", "Host": "h"},
  "body": "{\"v\": 1, \"w\": {\"v\": \"two\"}, \"x\": [{\"v\": null}, {\"v\": {\"a\": 1}}, {\"v\": [1, [2, 3]]}]}",
  "ip": "127.0.0.1"
})");

Selection select(const ir::Json& from, const ir::Json& using_config) {
  auto result = Selector(using_config).select(select_field(kRequest, from));
  EXPECT_TRUE(std::holds_alternative<Selection>(result));
  return std::holds_alternative<Selection>(result) ? std::get<Selection>(result) : Selection{};
}

TEST(SelectField, NamesIgnoreCaseAndOneKeyObjectsDescend) {
  EXPECT_EQ(*select_field(kRequest, "PATH"), "/accounts/123/x");
  EXPECT_EQ(*select_field(kRequest, {{"headers", "X-Request"}}), "abc");
  EXPECT_EQ(*select_field(kRequest, {{"query", "single"}}), "s");
  // A multi-valued field gives its first value.
  EXPECT_EQ(*select_field(kRequest, {{"query", "q"}}), "first");
  // The outer key is matched exactly.
  EXPECT_EQ(select_field(kRequest, {{"Query", "q"}}), nullptr);
  EXPECT_EQ(select_field(kRequest, "missing"), nullptr);
  EXPECT_EQ(select_field(kRequest, {{"query", "missing"}}), nullptr);
}

TEST(Selector, RegexGivesTheWholeMatchThenGroups) {
  const ir::Json using_config = {{"method", "regex"}, {"selector", "(\\d)(\\d)(x)?\\d"}};
  EXPECT_EQ(select("path", using_config),
            (Selection{JsText("123"), JsText("1"), JsText("2"), std::nullopt}));
  EXPECT_EQ(select("path", {{"method", "regex"}, {"selector", "nomatch"}}), Selection{});
}

TEST(Selector, RegexOptions) {
  EXPECT_EQ(
      select("path",
             {{"method", "regex"}, {"selector", "ACCOUNTS"}, {"options", {{"ignoreCase", true}}}}),
      (Selection{JsText("accounts")}));
  const ir::Json multiline = {
      {"method", "regex"}, {"selector", "^\\w+$"}, {"options", {{"multiline", true}}}};
  const ir::Json lines = {{"body", "first\nsecond"}};
  EXPECT_EQ(std::get<Selection>(Selector(multiline).select(select_field(lines, "body"))),
            (Selection{JsText("first")}));
}

TEST(Selector, RegexReadsAMissingFieldAsUndefined) {
  EXPECT_EQ(select("missing", {{"method", "regex"}, {"selector", "\\w+"}}),
            (Selection{JsText("undefined")}));
  EXPECT_EQ(select("query", {{"method", "regex"}, {"selector", "\\[.*\\]"}}),
            (Selection{JsText("[object Object]")}));
}

TEST(Selector, JsonPathResultsAsJavaScriptText) {
  EXPECT_EQ(select("BODY", {{"method", "jsonpath"}, {"selector", "$..v"}}),
            (Selection{JsText("1"), JsText("two"), JsText("null"), JsText("[object Object]"),
                       JsText("1,2,3")}));
  EXPECT_EQ(select("path", {{"method", "jsonpath"}, {"selector", "$.v"}}), Selection{});
  EXPECT_EQ(select("body", {{"method", "jsonpath"}, {"selector", "$[?("}}), Selection{});
  EXPECT_EQ(select("query", {{"method", "jsonpath"}, {"selector", "$.Single"}}),
            (Selection{JsText("s")}));
}

// String(value) of each number as Node 20 prints it, where JSON would give 1e-07 or 1e+20.
TEST(Selector, JsonPathNumbersAsJavaScriptText) {
  const ir::Json request = {
      {"body", R"({"n": [0.000001, 1e-7, 1e21, 123456789012345680000, 2.5, 1000000000000000]})"}};
  auto result = Selector({{"method", "jsonpath"}, {"selector", "$.n[*]"}})
                    .select(select_field(request, "body"));
  EXPECT_EQ(
      std::get<Selection>(result),
      (Selection{JsText("0.000001"), JsText("1e-7"), JsText("1e+21"),
                 JsText("123456789012345680000"), JsText("2.5"), JsText("1000000000000000")}));
}

TEST(Selector, XPathNodeValuesInDocumentOrder) {
  const ir::Json request = {{"body", "<doc><a>1</a><b><a>2</a></b><c x='y'/></doc>"}};
  const auto values = [&](const ir::Json& using_config) {
    auto result = Selector(using_config).select(select_field(request, "body"));
    return std::get<Selection>(result);
  };
  EXPECT_EQ(values({{"method", "xpath"}, {"selector", "//a"}}),
            (Selection{JsText("1"), JsText("2")}));
  EXPECT_EQ(values({{"method", "xpath"}, {"selector", "//c/@x"}}), (Selection{JsText("y")}));
  // Scalars select nothing to copy.
  EXPECT_EQ(values({{"method", "xpath"}, {"selector", "count(//a)"}}), Selection{});
  EXPECT_EQ(values({{"method", "xpath"}, {"selector", "//missing"}}), Selection{});
}

TEST(Selector, XPathWithNamespaces) {
  const ir::Json request = {{"body", "<b:doc xmlns:b='urn:x'><b:t>hi</b:t></b:doc>"}};
  const ir::Json using_config = {
      {"method", "xpath"}, {"selector", "//n:t"}, {"ns", {{"n", "urn:x"}}}};
  EXPECT_EQ(std::get<Selection>(Selector(using_config).select(select_field(request, "body"))),
            (Selection{JsText("hi")}));
}

TEST(Selector, SelectorsThatDoNotCompileFailTheRequest) {
  auto xpath = Selector({{"method", "xpath"}, {"selector", "=*INVALID*="}})
                   .select(select_field(kRequest, "body"));
  ASSERT_TRUE(std::holds_alternative<MbError>(xpath));
  EXPECT_EQ(std::get<MbError>(xpath).code, "bad data");
  EXPECT_EQ(std::get<MbError>(xpath).message, "malformed xpath predicate selector");
  auto regex =
      Selector({{"method", "regex"}, {"selector", "("}}).select(select_field(kRequest, "path"));
  ASSERT_TRUE(std::holds_alternative<MbError>(regex));
  EXPECT_NE(std::get<MbError>(regex).message.find("Invalid regular expression"), std::string::npos);
}

TEST(Selector, JsonpathSelectionsPastTheWorkLimitFailTheRequest) {
  std::string deep = "1";
  for (int i = 0; i < 200; ++i) deep = R"({"a":)" + deep + "}";
  const ir::Json request = {{"body", deep}};
  auto selected = Selector({{"method", "jsonpath"}, {"selector", "$..a..a..a"}})
                      .select(select_field(request, "body"));
  ASSERT_TRUE(std::holds_alternative<MbError>(selected));
  EXPECT_EQ(std::get<MbError>(selected).code, "bad data");
  EXPECT_EQ(std::get<MbError>(selected).message,
            "jsonpath selection is too large: it passes the limit of 2097152 units of work");
  EXPECT_EQ(std::get<MbError>(selected).source, ir::Json("$..a..a..a"));
}

}  // namespace
}  // namespace rift::behaviors
