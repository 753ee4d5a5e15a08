// What tests/fuzz found in the config frontends (docs/testing.md, "Fuzzing"): a hang, a tree
// that could not be written out and stack overflows in std::regex, each an answer now.
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "frontends/config_file.h"
#include "frontends/ejs.h"
#include "frontends/yaml_to_json.h"

namespace rift::frontends {
namespace {

YamlError error_of(const std::string& text) {
  const auto result = yaml_documents_to_json(text);
  EXPECT_TRUE(std::holds_alternative<YamlError>(result)) << text;
  return std::holds_alternative<YamlError>(result) ? std::get<YamlError>(result) : YamlError{};
}

// yaml-cpp 0.7 reports an empty document at a stray ',' without moving past it, forever.
TEST(YamlFuzzFindings, StrayCommaIsAnErrorNotEndlessDocuments) {
  EXPECT_EQ(error_of(",").line, 1);
  const YamlError after_document = error_of("[a]\n,");
  EXPECT_EQ(after_document.line, 2);
  EXPECT_EQ(after_document.column, 1);
  EXPECT_EQ(error_of("a: 1\n---\n,,,").line, 3);
  EXPECT_TRUE(
      std::holds_alternative<std::vector<ir::Json>>(yaml_documents_to_json("---\n---\na, b\n")));
}

// nlohmann refuses to write out a string that is not UTF-8, so none may enter the tree.
TEST(YamlFuzzFindings, InvalidUtf8IsRefusedWithItsPosition) {
  const YamlError value = error_of("protocol: ht\xf4p\n");
  EXPECT_EQ(value.message, "invalid UTF-8 in a YAML scalar");
  EXPECT_EQ(value.line, 1);
  EXPECT_EQ(value.column, 11);
  EXPECT_EQ(error_of("port: 1\n\xff: 1\n").line, 2);
  EXPECT_EQ(error_of("body: \"\\xc3\\x28 is escaped, this is not: \xc3\x28\"\n").line, 1);
  const auto valid = yaml_documents_to_json("name: \"caf\xc3\xa9 \xf0\x9f\x98\x80\"\n");
  ASSERT_TRUE(std::holds_alternative<std::vector<ir::Json>>(valid));
  EXPECT_EQ(std::get<std::vector<ir::Json>>(valid)[0]["name"], "caf\xc3\xa9 \xf0\x9f\x98\x80");
}

ir::Json value_of(const std::string& scalar) {
  const auto result = yaml_documents_to_json("v: " + scalar + "\n");
  EXPECT_TRUE(std::holds_alternative<std::vector<ir::Json>>(result)) << scalar;
  return std::holds_alternative<std::vector<ir::Json>>(result)
             ? std::get<std::vector<ir::Json>>(result)[0]["v"]
             : ir::Json();
}

// The core schema's numbers, now matched without std::regex, which recursed once per digit.
TEST(YamlFuzzFindings, NumbersOfEveryLengthAndForm) {
  EXPECT_EQ(value_of("+12"), 12);
  EXPECT_EQ(value_of("-0"), 0);
  EXPECT_EQ(value_of("0o17"), 15);
  EXPECT_EQ(value_of("0x1F"), 31);
  EXPECT_EQ(value_of("1."), 1.0);
  EXPECT_EQ(value_of(".5"), 0.5);
  EXPECT_EQ(value_of("-2.5e+2"), -250.0);
  EXPECT_EQ(value_of("1E3"), 1000.0);
  for (const char* text : {".", "1e", "e3", "0x", "0o8", "+0x1", "1.2.3", "1_000", "--1"}) {
    EXPECT_EQ(value_of(text), text);
  }
  EXPECT_TRUE(value_of(std::string(300000, '7')).is_number());
  EXPECT_TRUE(value_of("0." + std::string(300000, '5') + "e1").is_number());
}

TEST(EjsFuzzFindings, OverlongCodeIsAnErrorNotAStackOverflow) {
  for (const std::string& code :
       {"include " + std::string(100000, 'a'), "- process.env." + std::string(100000, 'B'),
        "- stringify('" + std::string(100000, 'c') + "')"}) {
    const auto result = render_ejs("x <%" + code + " %>", "imposters.ejs", "imposters.ejs");
    ASSERT_TRUE(std::holds_alternative<ConfigError>(result));
    EXPECT_EQ(std::get<ConfigError>(result).message, "EJS code longer than 8192 bytes");
    EXPECT_EQ(std::get<ConfigError>(result).column, 3);
  }
}

// nlohmann throws out_of_range, not parse_error, for a number beyond a double; it was uncaught.
TEST(ConfigFuzzFindings, NumberBeyondADoubleIsAnError) {
  const auto result = parse_config_text("{\"protocol\": \"http\",\n \"port\": 2e394}", "c.json");
  ASSERT_TRUE(std::holds_alternative<ConfigError>(result));
  const ConfigError& error = std::get<ConfigError>(result);
  EXPECT_EQ(error.message, "invalid JSON: number overflow parsing '2e394'");
  EXPECT_EQ(error.line, 2);
  EXPECT_EQ(error.column, 10);
}

// nlohmann's lexer ends the text at a NUL byte and accepted whatever followed it.
TEST(ConfigFuzzFindings, NulByteIsAnError) {
  const auto result =
      parse_config_text(std::string("{\"protocol\": \"http\"}\n\0junk", 26), "c.json");
  ASSERT_TRUE(std::holds_alternative<ConfigError>(result));
  EXPECT_EQ(std::get<ConfigError>(result).message, "invalid JSON: a NUL byte");
  EXPECT_EQ(std::get<ConfigError>(result).line, 2);
  EXPECT_EQ(std::get<ConfigError>(result).column, 1);
}

}  // namespace
}  // namespace rift::frontends
