#include "runtime/options/options.h"

#include <gtest/gtest.h>

namespace rift {
namespace {

Options parse(std::vector<std::string> args, std::vector<std::string> env = {}) {
  std::vector<char*> environment;
  for (auto& entry : env) environment.push_back(entry.data());
  environment.push_back(nullptr);
  auto result = parse_options(args, environment.data());
  EXPECT_TRUE(std::holds_alternative<Options>(result)) << std::get<std::string>(result);
  return std::get<Options>(result);
}

TEST(Options, MountebankFlagsAndAliases) {
  auto options = parse({"start", "-p", "3000", "--allowInjection", "--ipWhitelist", "1.2.3.4|::1",
                        "--apikey", "k", "-d", "--mock"});
  EXPECT_EQ(options.port, 3000);
  EXPECT_TRUE(options.allow_injection);
  EXPECT_EQ(options.ip_whitelist, (std::vector<std::string>{"1.2.3.4", "::1"}));
  EXPECT_EQ(options.apikey, "k");
  EXPECT_TRUE(options.debug);
  EXPECT_TRUE(options.mock);
}

TEST(Options, EnvironmentIsOverriddenByTheCommandLine) {
  auto options =
      parse({"--port", "4000"}, {"MB_PORT=3000", "MB_ALLOW_INJECTION=true", "MB_LOGLEVEL=warn"});
  EXPECT_EQ(options.port, 4000);
  EXPECT_TRUE(options.allow_injection);
  EXPECT_EQ(options.loglevel, "warn");
}

TEST(Options, ErrorsNameTheOption) {
  auto bad_port = parse_options({"--port", "99999"}, nullptr);
  ASSERT_TRUE(std::holds_alternative<std::string>(bad_port));
  EXPECT_NE(std::get<std::string>(bad_port).find("--port"), std::string::npos);
  auto bad_command = parse_options({"launch"}, nullptr);
  EXPECT_EQ(std::get<std::string>(bad_command), "Invalid command 'launch'.");
  EXPECT_TRUE(std::holds_alternative<std::string>(parse_options({"--bogus"}, nullptr)));
}

TEST(Options, EngineDefaultsToAutoAndRefusesUnknownValues) {
  EXPECT_EQ(parse({"start"}).engine, "auto");
  EXPECT_EQ(parse({"start", "--engine", "jit"}).engine, "jit");
  EXPECT_EQ(parse({"start", "--engine", "jit", "--engine", "interp"}).engine, "interp");
  EXPECT_EQ(parse({"start"}, {"MB_ENGINE=interp"}).engine, "interp");
  char* no_environment[] = {nullptr};
  auto bad = parse_options({"start", "--engine", "llvm"}, no_environment);
  ASSERT_TRUE(std::holds_alternative<std::string>(bad));
  EXPECT_NE(std::get<std::string>(bad).find("--engine must be interp, jit or auto"),
            std::string::npos);
}

TEST(Options, InjectionTimeoutIsMillisecondsAndPositive) {
  EXPECT_EQ(parse({"start"}).injection_timeout_ms, 10000u);
  EXPECT_EQ(parse({"start", "--injectionTimeout", "250"}).injection_timeout_ms, 250u);
  char* no_environment[] = {nullptr};
  auto bad = parse_options({"start", "--injectionTimeout", "0"}, no_environment);
  ASSERT_TRUE(std::holds_alternative<std::string>(bad));
  EXPECT_NE(std::get<std::string>(bad).find("--injectionTimeout"), std::string::npos);
}

}  // namespace
}  // namespace rift
