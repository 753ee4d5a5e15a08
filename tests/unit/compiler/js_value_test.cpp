// compiler/js_value against JavaScript itself: every expected string and number below was
// printed by Node 20 (`node -e 'console.log(String(1e-7))'`, `Number(s)`, `parseInt(s)`,
// `Boolean(v)`, `JSON.stringify(v, null, 4)`, `String(JSON.parse(text))` for the integers).
#include "compiler/js_value.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace rift::js {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::string number(double value) {
  return to_string(ir::Json(value));
}

// String(JSON.parse(text)): integers keep nlohmann's int64/uint64 storage.
std::string parsed(const std::string& text) {
  return to_string(ir::Json::parse(text));
}

// Number(text) printed as Node prints it ("NaN" for nullopt, "-0" for negative zero).
std::string from_string(std::string_view text) {
  const auto value = number_from_string(text);
  if (!value) return "NaN";
  if (*value == 0 && std::signbit(*value)) return "-0";
  return number_to_string(*value);
}

double number_of(const std::string& json) {
  const ir::Json value = ir::Json::parse(json);
  return to_number(&value);
}

std::string parsed_int(std::string_view text) {
  const auto value = parse_int(text);
  if (!value) return "NaN";
  if (*value == 0 && std::signbit(*value)) return "-0";
  return number_to_string(*value);
}

TEST(JsValueToString, NumbersAsNumberToString) {
  EXPECT_EQ(number(0), "0");
  EXPECT_EQ(number(-0.0), "0");
  EXPECT_EQ(number(1e-7), "1e-7");
  EXPECT_EQ(number(0.000001), "0.000001");
  EXPECT_EQ(number(1e-5), "0.00001");
  EXPECT_EQ(number(1.2345e-7), "1.2345e-7");
  EXPECT_EQ(number(123456789012345680000.0), "123456789012345680000");
  EXPECT_EQ(number(1e20), "100000000000000000000");
  EXPECT_EQ(number(1e21), "1e+21");
  EXPECT_EQ(number(-1e21), "-1e+21");
  EXPECT_EQ(number(1e15), "1000000000000000");
  EXPECT_EQ(number(1.5e300), "1.5e+300");
  EXPECT_EQ(number(1.7976931348623157e308), "1.7976931348623157e+308");
  EXPECT_EQ(number(std::nan("")), "NaN");
  EXPECT_EQ(number(kInf), "Infinity");
  EXPECT_EQ(number(-kInf), "-Infinity");
  EXPECT_EQ(number(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(number(5e-324), "5e-324");
  EXPECT_EQ(number(9007199254740992.0), "9007199254740992");  // 2**53
  EXPECT_EQ(number(-1.5), "-1.5");
  EXPECT_EQ(number(2.5), "2.5");
  EXPECT_EQ(number(123.456), "123.456");
  EXPECT_EQ(number(100), "100");
}

TEST(JsValueToString, IntegersFromJsonAsJsonParseReadsThem) {
  EXPECT_EQ(parsed("1000000000000000"), "1000000000000000");
  EXPECT_EQ(parsed("-42"), "-42");
  EXPECT_EQ(parsed("9007199254740993"), "9007199254740992");  // beyond 2**53: a double
  EXPECT_EQ(parsed("9223372036854775807"), "9223372036854776000");
  EXPECT_EQ(parsed("-9223372036854775808"), "-9223372036854776000");
  EXPECT_EQ(parsed("18446744073709551615"), "18446744073709552000");  // uint64
  EXPECT_EQ(parsed("1e21"), "1e+21");
  EXPECT_EQ(parsed("0.000001"), "0.000001");
}

TEST(JsValueToString, OtherValues) {
  EXPECT_EQ(to_string(ir::Json("text")), "text");
  EXPECT_EQ(to_string(ir::Json(nullptr)), "null");
  EXPECT_EQ(to_string(ir::Json(true)), "true");
  EXPECT_EQ(to_string(ir::Json::object()), "[object Object]");
  EXPECT_EQ(to_string(ir::Json::array()), "");
  EXPECT_EQ(to_string(nullptr), "undefined");
  // String([1, null, [2, 3], {}, undefined, "a", 1e-7, true]); JSON has no undefined element.
  EXPECT_EQ(parsed(R"([1, null, [2, 3], {}, null, "a", 1e-7, true])"),
            "1,,2,3,[object Object],,a,1e-7,true");
}

TEST(JsValueNumber, StringToNumber) {
  EXPECT_EQ(from_string("  12 "), "12");
  EXPECT_EQ(from_string("0x1f"), "31");
  EXPECT_EQ(from_string("0X1F"), "31");
  EXPECT_EQ(from_string("1e3"), "1000");
  EXPECT_EQ(from_string("1e+3"), "1000");
  EXPECT_EQ(from_string("1E-3"), "0.001");
  EXPECT_EQ(from_string("inf"), "NaN");
  EXPECT_EQ(from_string("infinity"), "NaN");
  EXPECT_EQ(from_string("nan"), "NaN");
  EXPECT_EQ(from_string("NaN"), "NaN");
  EXPECT_EQ(from_string(""), "0");
  EXPECT_EQ(from_string("Infinity"), "Infinity");
  EXPECT_EQ(from_string("+Infinity"), "Infinity");
  EXPECT_EQ(from_string("-Infinity"), "-Infinity");
  EXPECT_EQ(from_string("-0"), "-0");
  EXPECT_EQ(from_string(" \n"), "0");
  EXPECT_EQ(from_string("0b11"), "3");
  EXPECT_EQ(from_string("0B101"), "5");
  EXPECT_EQ(from_string("0o17"), "15");
  EXPECT_EQ(from_string("0O17"), "15");
  EXPECT_EQ(from_string("1e"), "NaN");
  EXPECT_EQ(from_string(".5"), "0.5");
  EXPECT_EQ(from_string("+.5"), "0.5");
  EXPECT_EQ(from_string("5."), "5");
  EXPECT_EQ(from_string("+5"), "5");
  EXPECT_EQ(from_string("00012"), "12");
  EXPECT_EQ(from_string("  -2.5e-3  "), "-0.0025");
  EXPECT_EQ(from_string("0.0000001"), "1e-7");
  for (const char* nan :
       {"0x", "0b", "0o", "0b2", "1_0", "-0x1f", ".", "e5", "+", "1.2.3", "12abc"}) {
    EXPECT_EQ(from_string(nan), "NaN") << nan;
  }
}

TEST(JsValueNumber, WhitespaceIsJavaScripts) {
  EXPECT_EQ(from_string("\xC2\xA0"
                        "12\xEF\xBB\xBF"),
            "12");                                             // U+00A0 ... U+FEFF
  EXPECT_EQ(from_string("\xE2\x80\xA8 7 \xE2\x80\xA9"), "7");  // U+2028, U+2029
  EXPECT_EQ(from_string("\xE3\x80\x80"
                        "5"),
            "5");  // U+3000
  EXPECT_EQ(from_string("\v\f\t\r5"), "5");
}

TEST(JsValueNumber, RangeAndRounding) {
  EXPECT_EQ(from_string("1e400"), "Infinity");
  EXPECT_EQ(from_string("-1e400"), "-Infinity");
  EXPECT_EQ(from_string("1e-400"), "0");
  EXPECT_EQ(from_string("5e-324"), "5e-324");
  EXPECT_EQ(from_string("2.4703282292062328e-324"), "5e-324");
  EXPECT_EQ(from_string("0x10000000000000801"), "18446744073709556000");
  EXPECT_EQ(from_string("0x200000000000011"), "144115188075855900");  // rounded once, not twice
  EXPECT_EQ(from_string("0o10000000000000000021"), "144115188075855900");
  EXPECT_EQ(from_string("0b100000000000000000000000000000000000000000000000000001"),
            "9007199254740992");
}

TEST(JsValueNumber, ToNumberOfJsonValues) {
  EXPECT_TRUE(std::isnan(to_number(nullptr)));
  EXPECT_EQ(number_of("null"), 0);
  EXPECT_EQ(number_of("true"), 1);
  EXPECT_EQ(number_of("\" 0x10 \""), 16);
  EXPECT_EQ(number_of("[]"), 0);
  EXPECT_EQ(number_of("[\"7\"]"), 7);
  EXPECT_TRUE(std::isnan(number_of("[1,2]")));
  EXPECT_TRUE(std::isnan(number_of("{}")));
}

TEST(JsValueNumber, ToInt32) {
  EXPECT_EQ(to_int32(201.7), 201);
  EXPECT_EQ(to_int32(-201.7), -201);
  EXPECT_EQ(to_int32(std::nan("")), 0);
  EXPECT_EQ(to_int32(kInf), 0);
  EXPECT_EQ(to_int32(4294967496.0), 200);  // (2**32 + 200) | 0
  EXPECT_EQ(to_int32(2147483648.0), -2147483648);
}

TEST(JsValueNumber, ParseInt) {
  EXPECT_EQ(parsed_int("12px"), "12");
  EXPECT_EQ(parsed_int("  -42"), "-42");
  EXPECT_EQ(parsed_int("0x1f"), "31");
  EXPECT_EQ(parsed_int("0X1F"), "31");
  EXPECT_EQ(parsed_int("-0x10"), "-16");
  EXPECT_EQ(parsed_int("abc"), "NaN");
  EXPECT_EQ(parsed_int(""), "NaN");
  EXPECT_EQ(parsed_int("0x"), "NaN");
  EXPECT_EQ(parsed_int("-0"), "-0");
  EXPECT_EQ(parsed_int("+7"), "7");
  EXPECT_EQ(parsed_int("1e3"), "1");
  EXPECT_EQ(parsed_int("3.9"), "3");
  EXPECT_EQ(parsed_int("\xC2\xA0 8"), "8");
  EXPECT_EQ(parsed_int("123456789012345678901234567890"), "1.2345678901234568e+29");
  EXPECT_EQ(parsed_int("0x200000000000011"), "144115188075855900");
}

TEST(JsValueBoolean, ToBoolean) {
  EXPECT_FALSE(truthy(ir::Json(0)));
  EXPECT_FALSE(truthy(ir::Json(0u)));
  EXPECT_FALSE(truthy(ir::Json(-0.0)));
  EXPECT_FALSE(truthy(ir::Json(std::nan(""))));
  EXPECT_FALSE(truthy(ir::Json("")));
  EXPECT_FALSE(truthy(ir::Json(nullptr)));
  EXPECT_FALSE(truthy(ir::Json(false)));
  EXPECT_FALSE(truthy(nullptr));  // undefined
  EXPECT_TRUE(truthy(ir::Json("0")));
  EXPECT_TRUE(truthy(ir::Json("false")));
  EXPECT_TRUE(truthy(ir::Json::array()));
  EXPECT_TRUE(truthy(ir::Json::object()));
  EXPECT_TRUE(truthy(ir::Json(true)));
  EXPECT_TRUE(truthy(ir::Json(1)));
  EXPECT_TRUE(truthy(ir::Json(-1)));
  EXPECT_TRUE(truthy(ir::Json(0.5)));
}

TEST(JsValueStringify, JsonStringifyWithJavaScriptNumbers) {
  const ir::Json value = ir::Json::parse(
      R"J({"small":[1e-7,0.000001,-0],"s":"a\"b\\\n\u0001\u001f\u007f\u00e9/","e":{},"a":[],)J"
      R"J("n":null,"t":true,"i":9007199254740993,"o":{"x":[1e21,{}]}})J");
  EXPECT_EQ(stringify(value),
            R"({"small":[1e-7,0.000001,0],"s":"a\"b\\\n\u0001\u001f)"
            "\x7f\xc3\xa9"
            R"(/","e":{},"a":[],"n":null,"t":true,"i":9007199254740992,"o":{"x":[1e+21,{}]}})");
  EXPECT_EQ(
      stringify(value, 4),
      "{\n    \"small\": [\n        1e-7,\n        0.000001,\n        0\n    ],\n"
      "    \"s\": \"a\\\"b\\\\\\n\\u0001\\u001f\x7f\xc3\xa9/\",\n    \"e\": {},\n"
      "    \"a\": [],\n    \"n\": null,\n    \"t\": true,\n    \"i\": 9007199254740992,\n"
      "    \"o\": {\n        \"x\": [\n            1e+21,\n            {}\n        ]\n    }\n}");
  EXPECT_EQ(stringify(ir::Json("bad \xff byte")), "\"bad \xef\xbf\xbd byte\"");  // U+FFFD
  EXPECT_EQ(string_length("h\xC3\xA9llo\xF0\x9F\x98\x80"), 7u);
}

TEST(JsValue, TypeOfAndKeyCount) {
  EXPECT_EQ(type_of(ir::Json(nullptr)), "object");
  EXPECT_EQ(type_of(ir::Json::array()), "object");
  EXPECT_EQ(type_of(ir::Json(1.5)), "number");
  EXPECT_EQ(type_of(ir::Json("s")), "string");
  EXPECT_EQ(type_of(ir::Json(false)), "boolean");
  EXPECT_EQ(type_of(nullptr), "undefined");
  EXPECT_EQ(key_count(ir::Json::parse(R"({"a":1,"b":2})")), 2u);
  EXPECT_EQ(key_count(ir::Json::parse("[1,2,3]")), 3u);
  EXPECT_EQ(key_count(ir::Json("h\xC3\xA9llo\xF0\x9F\x98\x80")), 7u);  // "héllo😀": UTF-16 units
  EXPECT_EQ(key_count(ir::Json(12)), 0u);
}

}  // namespace
}  // namespace rift::js
