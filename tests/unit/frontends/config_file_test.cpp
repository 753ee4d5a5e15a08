#include "frontends/config_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "test_helpers.h"

namespace rift::frontends {
namespace {

using testing::json;

std::vector<ir::Json> documents(std::string_view text, const std::string& file) {
  auto result = parse_config_text(text, file);
  if (auto* error = std::get_if<ConfigError>(&result)) {
    ADD_FAILURE() << error->to_string();
    return {};
  }
  return std::get<std::vector<ir::Json>>(result);
}

ConfigError error_of(std::string_view text, const std::string& file) {
  auto result = parse_config_text(text, file);
  EXPECT_TRUE(std::holds_alternative<ConfigError>(result)) << text;
  return std::holds_alternative<ConfigError>(result) ? std::get<ConfigError>(result)
                                                     : ConfigError{};
}

std::vector<ir::Imposter> imposters_from(const std::string& path) {
  auto loaded = load_config_file(path);
  if (auto* error = std::get_if<ConfigError>(&loaded)) {
    ADD_FAILURE() << error->to_string();
    return {};
  }
  std::vector<ir::Imposter> imposters;
  for (const auto& document : std::get<std::vector<ir::Json>>(loaded)) {
    auto parsed = parse_imposter(document, {});
    if (auto* errors = std::get_if<MbErrors>(&parsed)) {
      for (const auto& error : *errors) ADD_FAILURE() << path << ": " << error.to_json().dump();
      continue;
    }
    imposters.push_back(std::get<ir::Imposter>(std::move(parsed)));
  }
  return imposters;
}

TEST(ConfigFile, JsonExampleAndItsYamlTwinGiveEqualIr) {
  const std::string dir = std::string(RIFT_SOURCE_DIR) + "/examples/";
  const auto from_json = imposters_from(dir + "imposters.json");
  const auto from_yaml = imposters_from(dir + "imposters.yaml");
  ASSERT_EQ(from_json.size(), 3u);
  ASSERT_EQ(from_yaml.size(), 3u);
  for (std::size_t i = 0; i < from_json.size(); ++i) {
    EXPECT_EQ(from_json[i].stubs.size(), from_yaml[i].stubs.size()) << i;
    for (std::size_t s = 0; s < std::min(from_json[i].stubs.size(), from_yaml[i].stubs.size());
         ++s) {
      EXPECT_EQ(from_json[i].stubs[s].source.dump(2), from_yaml[i].stubs[s].source.dump(2));
    }
    EXPECT_EQ(from_json[i], from_yaml[i]) << "imposter " << i;
  }
  // Spot-check that the demo exercises what it claims to.
  EXPECT_EQ(from_json[0].port, 4545);
  EXPECT_EQ(from_json[1].name, "orders-api");
  ASSERT_TRUE(from_json[1].default_response);
  EXPECT_EQ((*from_json[1].default_response)["statusCode"], 404);
  EXPECT_EQ(from_json[1].stubs[1].predicates[1].op, ir::Op::kDeepEquals);
  EXPECT_EQ(from_json[1].stubs[2].responses[0].repeat, 2);
  EXPECT_EQ(from_json[1].stubs[3].responses[0].repeat, 3);  // from legacy _behaviors
  EXPECT_TRUE(from_json[2].allow_cors);
}

TEST(ConfigFile, DocumentShapes) {
  EXPECT_EQ(
      documents(R"({"imposters":[{"protocol":"http"},{"protocol":"https"}]})", "a.json").size(),
      2u);
  EXPECT_EQ(documents(R"({"protocol":"http","port":4545})", "a.json"),
            std::vector<ir::Json>{json(R"({"protocol":"http","port":4545})")});
  EXPECT_EQ(documents(R"([{"protocol":"http"}])", "a.json").size(), 1u);
  EXPECT_EQ(documents("protocol: http\nport: 4545\n", "a.yaml"),
            std::vector<ir::Json>{json(R"({"protocol":"http","port":4545})")});
  EXPECT_EQ(documents("- protocol: http\n- protocol: https\n", "a.yml").size(), 2u);
  EXPECT_EQ(documents("imposters:\n  - protocol: http\n", "a.yaml").size(), 1u);
  // Without a telling extension the text decides.
  EXPECT_EQ(documents("{\"protocol\":\"http\"}", "config").size(), 1u);
  EXPECT_EQ(documents("protocol: http\n", "config").size(), 1u);
}

TEST(ConfigFile, YamlScalarsFollowTheCoreSchema) {
  const auto docs = documents(R"(protocol: http
null1: ~
null2: null
null3:
yes: true
no: False
int: 42
negative: -7
hex: 0x1F
octal: 0o17
float: 2.5
exp: 1e3
quoted_int: "42"
single_quoted_bool: 'true'
quoted_null: "null"
yes_is_a_string: yes
version: 1.2.3
tagged: !!str 12
block: |
  line one
  line two
folded: >-
  one
  two
)",
                              "scalars.yaml");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0], json(R"({"protocol":"http","null1":null,"null2":null,"null3":null,
    "yes":true,"no":false,"int":42,"negative":-7,"hex":31,"octal":15,"float":2.5,"exp":1000.0,
    "quoted_int":"42","single_quoted_bool":"true","quoted_null":"null","yes_is_a_string":"yes",
    "version":"1.2.3","tagged":"12","block":"line one\nline two\n","folded":"one two"})"));
  EXPECT_TRUE(docs[0]["int"].is_number_integer());
  EXPECT_TRUE(docs[0]["float"].is_number_float());
}

TEST(ConfigFile, YamlMergeKeysDoNotOverride) {
  const auto docs = documents("base: &b {a: 1, b: 2}\nderived:\n  b: 3\n  <<: *b\n", "m.yaml");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0]["derived"].dump(), R"({"b":3,"a":1})");
}

TEST(ConfigFile, JsonSyntaxErrorsHaveLineAndColumn) {
  const auto error =
      error_of("{\n  \"imposters\": [\n    {\"protocol\": \"http\",}\n  ]\n}\n", "bad.json");
  EXPECT_EQ(error.file, "bad.json");
  EXPECT_EQ(error.line, 3);
  EXPECT_EQ(error.column, 25);
  EXPECT_THAT(error.message, ::testing::StartsWith("invalid JSON: "));
  EXPECT_THAT(error.to_string(), ::testing::StartsWith("bad.json:3:25: invalid JSON: "));
}

TEST(ConfigFile, YamlSyntaxErrorsHaveLineAndColumn) {
  const auto error = error_of("imposters:\n  - protocol: http\n    port: [4545\n", "bad.yaml");
  EXPECT_EQ(error.file, "bad.yaml");
  EXPECT_GE(error.line, 3);
  EXPECT_GT(error.column, 0);
  EXPECT_THAT(error.message, ::testing::StartsWith("invalid YAML: "));

  const auto key_error = error_of("imposters:\n  - ? [a, b]\n    : 1\n", "keys.yaml");
  EXPECT_EQ(key_error.message, "invalid YAML: mapping keys must be scalars");
  EXPECT_EQ(key_error.line, 2);
  EXPECT_EQ(key_error.column, 7);
}

TEST(ConfigFile, ImpostersFieldErrorsNameTheFieldAndPosition) {
  auto error = error_of("{\n  \"imposters\": {\"protocol\": \"http\"}\n}\n", "shape.json");
  EXPECT_EQ(error.message, "'imposters' must be an array");
  EXPECT_EQ(error.line, 2);
  EXPECT_EQ(error.column, 3);
  EXPECT_EQ(error.to_string(), "shape.json:2:3: 'imposters' must be an array");

  error = error_of("# comment\nimposters: 5\n", "shape.yaml");
  EXPECT_EQ(error.message, "'imposters' must be an array");
  EXPECT_EQ(error.line, 2);
  EXPECT_EQ(error.column, 1);

  error = error_of("\"just a string\"", "scalar.json");
  EXPECT_THAT(error.message, ::testing::HasSubstr("imposter"));
}

class EjsConfig : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("rift_ejs_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::create_directories(dir_ / "stubs");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& contents) {
    const auto path = dir_ / name;
    std::ofstream(path) << contents;
    return path.string();
  }

  std::filesystem::path dir_;
};

TEST_F(EjsConfig, IncludeIsRelativeToTheIncludingFile) {
  write("stubs/health.ejs", "{\"responses\": [{\"is\": {\"body\": \"ok\"}}]}");
  write("stubs/all.ejs", "<% include health.ejs %>");
  const auto root = write(
      "config.ejs",
      "{\"imposters\": [{\"protocol\": \"http\", \"stubs\": [\n<% include stubs/all.ejs %>\n]}]}");
  auto result = load_config_file(root);
  ASSERT_TRUE(std::holds_alternative<std::vector<ir::Json>>(result))
      << std::get<ConfigError>(result).to_string();
  EXPECT_EQ(std::get<std::vector<ir::Json>>(result).at(0)["stubs"][0]["responses"][0]["is"]["body"],
            "ok");
}

TEST_F(EjsConfig, StringifyIsRelativeToTheRootAndJsonEscaped) {
  write("stubs/body.txt", "\n  line \"one\"\n\tline two  \n\n");
  write("stubs/inner.ejs",
        "{\"is\": {\"body\": \"<%- stringify(filename, 'stubs/body.txt') %>\"}}");
  const auto root =
      write("config.json",
            "{\"protocol\": \"http\", \"name\": \"<%- stringify('stubs/body.txt') %>\",\n"
            " \"stubs\": [{\"responses\": [<% include stubs/inner.ejs %>]}]}");
  auto result = load_config_file(root);
  ASSERT_TRUE(std::holds_alternative<std::vector<ir::Json>>(result))
      << std::get<ConfigError>(result).to_string();
  const auto& imposter = std::get<std::vector<ir::Json>>(result).at(0);
  EXPECT_EQ(imposter["name"], "line \"one\"\n\tline two");
  EXPECT_EQ(imposter["stubs"][0]["responses"][0]["is"]["body"], "line \"one\"\n\tline two");
}

TEST_F(EjsConfig, EnvironmentVariables) {
  ::setenv("RIFT_EJS_TEST_PORT", "4599", 1);
  const auto root =
      write("config.json",
            "{\"protocol\": \"http\", \"port\": <%= process.env.RIFT_EJS_TEST_PORT %>,"
            " \"name\": \"<%- process.env['RIFT_EJS_UNSET_VARIABLE'] %>x\"}");
  auto result = load_config_file(root);
  ASSERT_TRUE(std::holds_alternative<std::vector<ir::Json>>(result))
      << std::get<ConfigError>(result).to_string();
  EXPECT_EQ(std::get<std::vector<ir::Json>>(result).at(0),
            json(R"({"protocol": "http", "port": 4599, "name": "x"})"));
}

TEST_F(EjsConfig, UnsupportedCodeIsReportedWithItsPosition) {
  const auto root = write("config.json", "{\n  \"imposters\": [<% for (const x of y) { %>]\n}");
  auto result = load_config_file(root);
  ASSERT_TRUE(std::holds_alternative<ConfigError>(result));
  const auto& error = std::get<ConfigError>(result);
  EXPECT_THAT(error.message, ::testing::HasSubstr("unsupported EJS code"));
  EXPECT_EQ(error.file, root);
  EXPECT_EQ(error.line, 2);
  EXPECT_EQ(error.column, 17);

  const auto missing = write("missing.json", "<% include nope.ejs %>");
  result = load_config_file(missing);
  ASSERT_TRUE(std::holds_alternative<ConfigError>(result));
  EXPECT_THAT(std::get<ConfigError>(result).message, ::testing::HasSubstr("nope.ejs"));
}

TEST(ConfigFile, NoParseReadsTemplatesLiterally) {
  auto plain = parse_config_text(R"({"protocol":"http","name":"<% literal %>"})", "n.json",
                                 ConfigOptions{.no_parse = true});
  ASSERT_TRUE(std::holds_alternative<std::vector<ir::Json>>(plain));
  EXPECT_EQ(std::get<std::vector<ir::Json>>(plain).at(0)["name"], "<% literal %>");
}

TEST(ConfigFile, MissingFile) {
  auto result = load_config_file("/nonexistent/rift/config.json");
  ASSERT_TRUE(std::holds_alternative<ConfigError>(result));
  EXPECT_EQ(std::get<ConfigError>(result).file, "/nonexistent/rift/config.json");
}

}  // namespace
}  // namespace rift::frontends
