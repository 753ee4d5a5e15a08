#include "compiler/jsonpath.h"

#include <gtest/gtest.h>

namespace rift::jsonpath {
namespace {

ir::Json select(const std::string& selector, const std::string& json) {
  auto path = Path::parse(selector);
  EXPECT_EQ(path.index(), 0u) << selector;
  ir::Json out = ir::Json::array();
  for (auto& value : std::get<Path>(path).select(ir::Json::parse(json))) out.push_back(value);
  return out;
}

const char* kStore = R"J({"store":{"book":[
  {"title":"A","price":8,"isbn":"x"},{"title":"B","price":12},{"title":"C","price":9}],
  "bicycle":{"color":"red","price":20}}})J";

TEST(JsonPath, Basics) {
  EXPECT_EQ(select("$.store.bicycle.color", kStore), ir::Json::parse(R"(["red"])"));
  EXPECT_EQ(select("$['store']['bicycle']['color']", kStore), ir::Json::parse(R"(["red"])"));
  EXPECT_EQ(select("$.store.book[1].title", kStore), ir::Json::parse(R"(["B"])"));
  EXPECT_EQ(select("$.store.book[*].title", kStore), ir::Json::parse(R"(["A","B","C"])"));
  EXPECT_EQ(select("$.store.book.*.price", kStore), ir::Json::parse("[8,12,9]"));
  EXPECT_EQ(select("$..price", kStore), ir::Json::parse("[8,12,9,20]"));
  EXPECT_EQ(select("$.store.book[0,2].title", kStore), ir::Json::parse(R"(["A","C"])"));
  EXPECT_EQ(select("$.store.book[-1:].title", kStore), ir::Json::parse(R"(["C"])"));
  EXPECT_EQ(select("$.store.book[:2].title", kStore), ir::Json::parse(R"(["A","B"])"));
  EXPECT_EQ(select("$.store.book.length", kStore), ir::Json::parse("[3]"));
  EXPECT_EQ(select("$.missing", kStore), ir::Json::array());
  EXPECT_EQ(select("$", "5"), ir::Json::parse("[5]"));
}

TEST(JsonPath, Filters) {
  EXPECT_EQ(select("$.store.book[?(@.price < 10)].title", kStore), ir::Json::parse(R"(["A","C"])"));
  EXPECT_EQ(select("$..book[?(@.isbn)].title", kStore), ir::Json::parse(R"(["A"])"));
  EXPECT_EQ(select("$..book[?(@.title == 'B' || @.price == '9')].title", kStore),
            ir::Json::parse(R"(["B","C"])"));
  EXPECT_EQ(select("$..book[?(@.title === 'B' && @.price > 100)]", kStore), ir::Json::array());
  EXPECT_EQ(select("$..book[?(!@.isbn)].title", kStore), ir::Json::parse(R"(["B","C"])"));
}

// Filters compare with JavaScript's rules (compiler/js_value.h); the expected selections were
// printed by jsonpath-plus 7.2.0 (Mountebank 2.9.1's) on Node 20.
TEST(JsonPath, FiltersCoerceAsJavaScript) {
  const char* items = R"J({"items":[
    {"n":1e-7,"s":"inf","h":"0x10","a":[5],"b":[1],"t":" 12 ","k":"b"},
    {"n":2,"s":"5","h":"1","a":[7],"b":[0],"t":"x","k":"a"}]})J";
  const auto keys = [&](const std::string& filter) {
    return select("$.items[?(" + filter + ")].k", items);
  };
  EXPECT_EQ(keys("@.n == 1e-7"), ir::Json::parse(R"(["b"])"));
  EXPECT_EQ(keys("@.n > 1e+0"), ir::Json::parse(R"(["a"])"));
  EXPECT_EQ(keys("@.s > 1000"), ir::Json::array());  // Number("inf") is NaN
  EXPECT_EQ(keys("@.h == 16"), ir::Json::parse(R"(["b"])"));
  EXPECT_EQ(keys("@.a == 5"), ir::Json::parse(R"(["b"])"));
  EXPECT_EQ(keys("@.b == true"), ir::Json::parse(R"(["b"])"));
  EXPECT_EQ(keys("@.a < 6"), ir::Json::parse(R"(["b"])"));
  EXPECT_EQ(keys("@.t == 12"), ir::Json::parse(R"(["b"])"));
  EXPECT_EQ(keys("@.k < 'b'"), ir::Json::parse(R"(["a"])"));
  EXPECT_EQ(keys("@.a > '6'"), ir::Json::parse(R"(["a"])"));
  EXPECT_EQ(Path::parse("$.items[?(@.n == 1.2.3)].k").index(), 1u);  // a syntax error
  EXPECT_EQ(Path::parse("$.items[?(@.n == 1e)].k").index(), 1u);
}

TEST(JsonParser, LikeJsonParse) {
  JsonParser parser;
  EXPECT_EQ(parser.parse(R"( {"a":1,"a":2} )"), ir::Json::parse(R"({"a":2.0})"));
  EXPECT_FALSE(parser.parse("not json"));
  EXPECT_FALSE(parser.parse(""));
  EXPECT_EQ(parser.parse("12345678901234567890123")->get<double>(), 1.2345678901234568e22);
  EXPECT_EQ(parser.parse("\"s\""), ir::Json("s"));
}

}  // namespace
}  // namespace rift::jsonpath
