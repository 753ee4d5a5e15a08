#include "runtime/options/options.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <set>

#include "runtime/options/option_table.h"

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

TEST(Options, KebabCaseSpellingsOfTheReferenceRiftAreTheSameOptions) {
  auto options = parse({"start", "--allow-injection", "--metrics-port", "9191", "--local-only",
                        "--ip-whitelist=::1"});
  EXPECT_TRUE(options.allow_injection);
  EXPECT_EQ(options.metrics_port, 9191);
  EXPECT_TRUE(options.local_only);
  EXPECT_EQ(options.ip_whitelist, (std::vector<std::string>{"::1"}));
  // Only the long form: a single dash stays an alias.
  auto refused = parse_options({"start", "-allow-injection"}, nullptr);
  ASSERT_TRUE(std::holds_alternative<std::string>(refused));
  EXPECT_NE(std::get<std::string>(refused).find("-allow-injection"), std::string::npos);
}

TEST(Options, MetricsPortIsOffUnlessGivenAndReadFromTheEnvironment) {
  EXPECT_EQ(parse({"start"}).metrics_port, -1);
  EXPECT_EQ(parse({"start", "--metricsPort", "0"}).metrics_port, 0);
  EXPECT_EQ(parse({"start"}, {"RIFT_METRICS_PORT=9090"}).metrics_port, 9090);
  auto refused = parse_options({"start", "--metrics-port", "70000"}, nullptr);
  ASSERT_TRUE(std::holds_alternative<std::string>(refused));
  EXPECT_NE(std::get<std::string>(refused).find("metricsPort"), std::string::npos)
      << std::get<std::string>(refused);
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

TEST(Options, SeedIsAWholeNumberOrUnset) {
  EXPECT_FALSE(parse({"start"}).seed.has_value());
  EXPECT_EQ(parse({"start", "--seed", "0"}).seed, 0u);
  EXPECT_EQ(parse({"start", "--seed", "12345678901234567890"}).seed, 12345678901234567890u);
  char* no_environment[] = {nullptr};
  for (const char* bad : {"-1", "1.5", "x", "", "18446744073709551616", "7 "}) {
    auto result = parse_options({"start", "--seed", bad}, no_environment);
    ASSERT_TRUE(std::holds_alternative<std::string>(result)) << bad;
    EXPECT_NE(std::get<std::string>(result).find("--seed"), std::string::npos);
  }
}

// ---- The table drives every source and view --------------------------------------------------

std::string parse_error(std::vector<std::string> args, std::vector<std::string> env = {}) {
  std::vector<char*> environment;
  for (auto& entry : env) environment.push_back(entry.data());
  environment.push_back(nullptr);
  auto result = parse_options(args, environment.data());
  EXPECT_TRUE(std::holds_alternative<std::string>(result)) << "parsed";
  return std::holds_alternative<std::string>(result) ? std::get<std::string>(result) : "";
}

// Named by process too: ctest runs each test in a process of its own, several at once, and a
// file another test is rewriting would read as empty.
std::string write_file(const std::string& name, const std::string& text) {
  const std::string path =
      testing::TempDir() + "/rift_options_" + std::to_string(getpid()) + "_" + name;
  std::ofstream(path) << text;
  return path;
}

std::string empty_rcfile() {
  static const std::string path = write_file("empty.json", "{}");
  return path;
}

// Options rows whose value the member's type does not say: the test's own sample for each.
std::optional<std::string> custom_sample(std::string_view name) {
  if (name == "log") return R"({"level":"warn"})";
  if (name == "seed") return "18446744073709551615";
  return std::nullopt;
}

// A value the row accepts that differs from its default.
std::string sample(const OptionRow& row) {
  if (row.name == "rcfile") return empty_rcfile();
  if (auto custom = custom_sample(row.name)) return *custom;
  if (row.is_flag()) return "true";
  if (!row.choices.empty()) {
    const std::string current = option_default_text(row);
    for (std::string_view choice : row.choices) {
      if (choice != current) return std::string(choice);
    }
  }
  if (row.high > row.low) return std::to_string(row.low + 1);
  return "sample-value";
}

// Whether `options` holds the row's sample (and not the default).
void expect_sample(const OptionRow& row, const Options& options, const std::string& how) {
  SCOPED_TRACE("--" + std::string(row.name) + " from " + how);
  const Options defaults;
  const std::string value = sample(row);
  std::visit(
      [&](auto member) {
        if constexpr (std::is_same_v<decltype(member), std::monostate>) {
          if (row.set == nullptr) {
            EXPECT_EQ(options, defaults) << "an ignored option changed something";
          } else {
            EXPECT_NE(options, defaults) << "the option changed nothing";
          }
        } else {
          const auto& got = options.*member;
          using T = std::remove_cvref_t<decltype(got)>;
          EXPECT_NE(got, defaults.*member) << "still the default";
          if constexpr (std::is_same_v<T, bool>) {
            EXPECT_TRUE(got);
          } else if constexpr (std::is_same_v<T, std::string>) {
            EXPECT_EQ(got, value);
          } else if constexpr (std::is_same_v<T, std::optional<std::string>>) {
            EXPECT_EQ(got, value);
          } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
            EXPECT_EQ(got, std::vector<std::string>{value});
          } else {
            EXPECT_EQ(std::to_string(got), value);
          }
          // Nothing else moved.
          Options only = options;
          only.*member = defaults.*member;
          EXPECT_EQ(only, defaults) << "another member changed too";
        }
      },
      row.member);
}

Options parse_env(const std::string& variable, const std::string& value) {
  return parse({}, {variable + "=" + value});
}

TEST(OptionsTable, EveryRowIsComplete) {
  std::set<std::string_view> names, aliases;
  std::set<std::string> variables;
  for (const OptionRow& row : option_table()) {
    SCOPED_TRACE(std::string(row.name));
    EXPECT_TRUE(names.insert(row.name).second) << "name twice";
    if (!row.alias.empty()) {
      EXPECT_TRUE(aliases.insert(row.alias).second) << "alias twice";
    }
    EXPECT_TRUE(variables.insert(option_env_suffix(row.name)).second) << "variable twice";
    EXPECT_FALSE(row.help.empty()) << "no help text";
    EXPECT_NE(row.sources & kFromArgv, 0u) << "every option is on the command line";
    if (!row.is_flag()) {
      EXPECT_TRUE(!row.value_name.empty() || !row.choices.empty()) << "--help shows no value";
    }
    const bool number = std::holds_alternative<int Options::*>(row.member) ||
                        std::holds_alternative<unsigned Options::*>(row.member) ||
                        std::holds_alternative<size_t Options::*>(row.member);
    EXPECT_EQ(number, row.low < row.high) << "a number needs a range, and only a number";
    if (row.in_config != InConfig::kNo) {
      EXPECT_FALSE(std::holds_alternative<std::monostate>(row.member)) << "/config shows nothing";
    }
    if (std::holds_alternative<std::monostate>(row.member) && row.set != nullptr) {
      EXPECT_TRUE(custom_sample(row.name)) << "give custom_sample() a value for this option";
    }
  }
  for (std::string_view alias : aliases) EXPECT_EQ(names.count(alias), 0u) << alias;
}

TEST(OptionsTable, EveryRowParsesFromTheCommandLine) {
  for (const OptionRow& row : option_table()) {
    const std::string name = "--" + std::string(row.name);
    const std::string value = sample(row);
    if (row.is_flag()) {
      expect_sample(row, parse({name}), name);
      expect_sample(row, parse({name, "true"}), name + " true");
      EXPECT_EQ(parse({name, "false"}), Options{}) << name << " false";
      EXPECT_EQ(parse({name + "=false"}), Options{}) << name << "=false";
    } else {
      expect_sample(row, parse({name, value}), name + " VALUE");
      EXPECT_EQ(parse_error({name}), "Option " + name + " needs a value.");
    }
    expect_sample(row, parse({name + "=" + value}), name + "=VALUE");
    if (!row.alias.empty()) {
      const std::string alias = "-" + std::string(row.alias);
      expect_sample(row, parse(row.is_flag() ? std::vector{alias} : std::vector{alias, value}),
                    alias);
      if (!row.is_flag()) {
        EXPECT_EQ(parse_error({alias}), "Option " + alias + " needs a value.");
      }
    }
  }
}

TEST(OptionsTable, EveryRowParsesFromBothEnvironmentPrefixes) {
  for (const OptionRow& row : option_table()) {
    for (const std::string prefix : {"MB_", "RIFT_"}) {
      const std::string variable = prefix + option_env_suffix(row.name);
      if (row.sources & kFromEnv) {
        expect_sample(row, parse_env(variable, sample(row)), variable);
      } else {
        EXPECT_EQ(parse_env(variable, sample(row)), Options{}) << variable << " is not read";
      }
    }
  }
  EXPECT_EQ(option_env_suffix("allowInjection"), "ALLOW_INJECTION");
  EXPECT_EQ(option_env_suffix("maxAdminBodyBytes"), "MAX_ADMIN_BODY_BYTES");
  EXPECT_EQ(option_env_suffix("nologfile"), "NOLOGFILE");
}

TEST(OptionsTable, EveryRowParsesFromTheRcfile) {
  for (const OptionRow& row : option_table()) {
    const std::string value = sample(row);
    // The value as a JSON string, and as the JSON type it stands for.
    ir::Json typed = value;
    if (row.is_flag()) typed = true;
    if (row.low < row.high) typed = std::stoll(value);
    if (custom_sample(row.name)) typed = ir::Json::parse(value);
    for (const ir::Json& json : {ir::Json(value), typed}) {
      const std::string rcfile =
          write_file("row.json", ir::Json{{std::string(row.name), json}}.dump());
      Options got = parse({"--rcfile", rcfile});
      got.rcfile.reset();
      if (row.sources & kFromRcfile) {
        expect_sample(row, got, "rcfile " + json.dump());
      } else {
        EXPECT_EQ(got, Options{}) << row.name << " is not read from an rcfile";
      }
    }
  }
}

TEST(OptionsTable, PrecedenceIsCommandLineRcfileRiftThenMb) {
  const std::string rcfile = write_file("port.json", R"({"port": 1003, "p": 1003})");
  EXPECT_EQ(parse({}, {"MB_PORT=1001"}).port, 1001);
  EXPECT_EQ(parse({}, {"MB_PORT=1001", "RIFT_PORT=1002"}).port, 1002);
  EXPECT_EQ(parse({}, {"RIFT_PORT=1002", "MB_PORT=1001"}).port, 1002);
  EXPECT_EQ(parse({"--rcfile", rcfile}, {"MB_PORT=1001", "RIFT_PORT=1002"}).port, 1003);
  EXPECT_EQ(parse({"--rcfile", rcfile, "-p", "1004"}, {"RIFT_PORT=1002"}).port, 1004);
  EXPECT_EQ(parse({"-p", "1004", "--rcfile", rcfile}).port, 1004);
  // The rcfile's own path may come from the environment; the command line's wins.
  EXPECT_EQ(parse({}, {"MB_RCFILE=" + rcfile}).port, 1003);
  EXPECT_EQ(parse({}, {"RIFT_RCFILE=" + rcfile, "MB_RCFILE=/nonexistent"}).port, 1003);
  EXPECT_EQ(parse({"--rcfile", rcfile}, {"RIFT_RCFILE=/nonexistent"}).port, 1003);
}

TEST(OptionsTable, ARepeatableOptionTakesTheValuesOfItsHighestSource) {
  EXPECT_EQ(parse({"-o", "http://b", "--origin", "http://c"}, {"MB_ORIGIN=http://a"}).origins,
            (std::vector<std::string>{"http://b", "http://c"}));
  EXPECT_EQ(parse({}, {"MB_ORIGIN=http://a", "RIFT_ORIGIN=http://r"}).origins,
            (std::vector<std::string>{"http://r"}));
  const std::string rcfile =
      write_file("lists.json", R"({"origin": ["http://x", "http://y"], "ipWhitelist": ["1.2.3.4",
        "::FFFF:1.2.3.4"], "apikey": null})");
  Options options = parse({"--rcfile", rcfile}, {"MB_ORIGIN=http://a", "MB_APIKEY=k"});
  EXPECT_EQ(options.origins, (std::vector<std::string>{"http://x", "http://y"}));
  EXPECT_EQ(options.ip_whitelist, (std::vector<std::string>{"1.2.3.4", "::ffff:1.2.3.4"}));
  EXPECT_EQ(options.apikey, "k") << "null in an rcfile sets nothing";
}

TEST(OptionsTable, UnknownVariablesAreIgnored) {
  EXPECT_EQ(parse({}, {"RIFT_NO_SUCH_OPTION=1", "RIFT_BIN=/usr/bin/rift", "RIFT_=1", "RIFT_PORT",
                       "MB_NO_SUCH_OPTION=2", "RIFT_VERSION=1.2.3", "RIFT_HELP=1", "MB_HELP=1",
                       "rift_port=3000", "RIFT_port=3000", "RIFT_ALLOWINJECTION=true"}),
            Options{});
}

TEST(OptionsTable, ErrorsNameTheOptionAndWhereItCameFrom) {
  EXPECT_EQ(parse_error({"--port"}), "Option --port needs a value.");
  EXPECT_EQ(parse_error({"start", "-p"}), "Option -p needs a value.");
  EXPECT_EQ(parse_error({"--bogus"}), "Unknown option '--bogus'.");
  EXPECT_EQ(parse_error({"--bogus=1"}), "Unknown option '--bogus=1'.");
  EXPECT_EQ(parse_error({"--port", "abc"}),
            "invalid value for --port: 'abc' (a whole number from 1 to 65535)");
  EXPECT_EQ(parse_error({"--threads=0"}),
            "invalid value for --threads: '0' (a whole number from 1 to 1024)");
  EXPECT_EQ(parse_error({}, {"MB_PORT=3000x"}),
            "invalid value for --port: '3000x' (a whole number from 1 to 65535) (from MB_PORT)");
  EXPECT_EQ(parse_error({}, {"RIFT_ENGINE=llvm"}),
            "--engine must be interp, jit or auto, not 'llvm' (from RIFT_ENGINE)");
  EXPECT_EQ(parse_error({"--loglevel", "loud"}),
            "--loglevel must be debug, info, warn or error, not 'loud'");
  EXPECT_EQ(parse_error({"--log", "[1]"}), "invalid value for --log: not a JSON object");
  const std::string rcfile = write_file("bad.json", R"({"maxBodyBytes": -1})");
  EXPECT_EQ(parse_error({"--rcfile", rcfile}),
            "invalid value for --maxBodyBytes: '-1' (a whole number from 1 to 1099511627776) "
            "(from rcfile '" +
                rcfile + "')");
  EXPECT_EQ(parse_error({"--rcfile", "/nonexistent/rc"}), "Cannot read rcfile '/nonexistent/rc'.");
  const std::string not_object = write_file("array.json", "[1]");
  EXPECT_EQ(parse_error({"--rcfile", not_object}),
            "rcfile '" + not_object + "' is not a JSON object.");
  EXPECT_EQ(parse_error({"stop", "start"}), "Invalid command 'start'.");
}

// GET /config's `options`, byte for byte as before the table (and as Mountebank's keys).
TEST(OptionsTable, ConfigJsonIsUnchanged) {
  EXPECT_EQ(parse({}).to_config_json().dump(),
            R"({"port":2525,"pidfile":"mb.pid","nologfile":false,"logfile":"mb.log",)"
            R"("loglevel":"info","allowInjection":false,"localOnly":false,"ipWhitelist":["*"],)"
            R"("noParse":false,"debug":false,"origin":false,"apikey":null,"log":{"level":"info",)"
            R"("transports":{"console":{"colorize":true,"format":"%level: %message"},)"
            R"("file":{"path":"mb.log","format":"json"}}}})");
  EXPECT_EQ(
      parse({"--host",    "127.0.0.1",   "--configfile", "c.json",   "--datadir", "d",
             "--mock",    "--origin",    "http://a",     "--origin", "http://b",  "--apikey",
             "k",         "--nologfile", "--loglevel",   "debug",    "-w",        "1.2.3.4|::1",
             "--noParse", "-d",          "-i",           "-l",       "--pidfile", "x.pid",
             "--logfile", "x.log"})
          .to_config_json()
          .dump(),
      R"({"port":2525,"host":"127.0.0.1","pidfile":"x.pid","nologfile":true,)"
      R"("logfile":"x.log","loglevel":"debug","allowInjection":true,"localOnly":true,)"
      R"("ipWhitelist":["1.2.3.4","::1"],"configfile":"c.json","noParse":true,)"
      R"("datadir":"d","mock":true,"debug":true,"origin":["http://a","http://b"],)"
      R"("apikey":"k","log":{"level":"debug","transports":{"console":{"colorize":true,)"
      R"("format":"%level: %message"}}}})");
}

TEST(OptionsTable, ConfigListsWhatTheTableSays) {
  // Every option at its default, then every option set to its sample.
  std::vector<std::string> every;
  for (const OptionRow& row : option_table()) {
    if (row.name == "help" || row.name == "version") continue;
    every.push_back("--" + std::string(row.name) + "=" + sample(row));
  }
  for (const Options& options : {Options{}, parse(every)}) {
    const ir::Json config = options.to_config_json();
    std::vector<std::string> expected_keys;
    for (const OptionRow& row : option_table()) {
      if (!row.shown_in_config()) continue;
      bool set = true;
      std::visit(
          [&](auto member) {
            if constexpr (!std::is_same_v<decltype(member), std::monostate>) {
              const auto& value = options.*member;
              using T = std::remove_cvref_t<decltype(value)>;
              ir::Json json;
              if constexpr (std::is_same_v<T, std::optional<std::string>>) {
                json = value ? ir::Json(*value) : ir::Json(nullptr);
                set = value.has_value();
              } else {
                json = value;
                if constexpr (std::is_same_v<T, bool>) set = value;
                if constexpr (std::is_same_v<T, std::string> ||
                              std::is_same_v<T, std::vector<std::string>>) {
                  set = !value.empty();
                }
              }
              if (row.in_config == InConfig::kWhenSet && !set) return;
              if (row.in_config == InConfig::kFalseWhenEmpty && !set) json = false;
              EXPECT_EQ(config.value(std::string(row.name), ir::Json()), json) << row.name;
            }
          },
          row.member);
      if (row.in_config != InConfig::kWhenSet || set) expected_keys.emplace_back(row.name);
    }
    std::vector<std::string> keys;
    for (const auto& [key, value] : config.items()) keys.push_back(key);
    EXPECT_EQ(keys, expected_keys);
  }
}

std::string squeezed(std::string_view text) {
  std::string out;
  for (char c : text) {
    const bool space = c == ' ' || c == '\n';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  return out;
}

TEST(OptionsTable, HelpListsEveryOptionWithItsHelpText) {
  const std::string help = squeezed(usage_text());
  // Each option's entry, in table order: its label, its help text, its choices, its default.
  auto label_of = [](const OptionRow& row) {
    std::string label = "--" + std::string(row.name);
    if (!row.alias.empty()) label = "-" + std::string(row.alias) + ", " + label;
    std::string value(row.value_name);
    for (std::string_view choice : row.value_name.empty() ? row.choices : decltype(row.choices)()) {
      value += (value.empty() ? "" : "|") + std::string(choice);
    }
    if (!value.empty()) label += " " + value;
    return " " + label + " ";
  };
  const auto table = option_table();
  size_t cursor = 0;
  for (size_t i = 0; i < table.size(); ++i) {
    const OptionRow& row = table[i];
    const std::string label = label_of(row);
    const size_t start = help.find(label, cursor);
    ASSERT_NE(start, std::string::npos) << label;
    const size_t end =
        i + 1 < table.size() ? help.find(label_of(table[i + 1]), start) : help.size();
    ASSERT_NE(end, std::string::npos) << label_of(table[i + 1]);
    const std::string entry = help.substr(start + label.size(), end - start - label.size());
    EXPECT_EQ(entry.rfind(squeezed(row.help), 0), 0u) << label << ": " << entry;
    for (std::string_view choice : row.choices) {
      EXPECT_NE(entry.find(choice), std::string::npos) << label << ": " << choice;
    }
    if (const std::string shown = option_default_text(row); !shown.empty()) {
      EXPECT_NE(entry.find(" (default " + shown + ")"), std::string::npos)
          << label << ": " << entry;
    } else {
      EXPECT_EQ(entry.find("(default"), std::string::npos) << label << ": " << entry;
    }
    cursor = end;
  }
  EXPECT_NE(help.find("--engine interp|jit|auto"), std::string::npos);
  EXPECT_NE(help.find("--port N admin port"), std::string::npos);
  EXPECT_NE(help.find("(default 2525)"), std::string::npos);
  for (const std::string_view line : {"MB_<OPTION>", "RIFT_<OPTION>"}) {
    EXPECT_NE(help.find(line), std::string::npos) << line;
  }
  // No line is wider than the terminal the text is wrapped for.
  std::istringstream lines(usage_text());
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 96u) << line;
}

}  // namespace
}  // namespace rift
