// `riftc inspect CONFIG [--imposter PORT] [--format text|dot|json]`: loads a --configfile
// document, plans each imposter's stubs as the server would, runs the shadow/duplicate analysis
// and prints the result. Nothing is served and no injected code runs, so injection is accepted.
#include <iostream>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "compiler/analysis.h"
#include "compiler/plan.h"
#include "compiler/plan_render.h"
#include "frontends/config_file.h"
#include "frontends/mountebank_json.h"
#include "tools/riftc_commands.h"

namespace {

constexpr const char* kUsage =
    "usage: riftc inspect CONFIG [--imposter PORT] [--format text|dot|json] [--noParse]\n";

struct InspectOptions {
  std::string config;
  std::optional<int> port;
  std::string format = "text";
  bool no_parse = false;
};

// Returns the options, or prints why not and returns nullopt.
std::optional<InspectOptions> parse_args(const std::vector<std::string>& args) {
  InspectOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const bool has_value = i + 1 < args.size();
    if (arg == "--imposter" && has_value) {
      const std::string& text = args[++i];
      size_t used = 0;
      int port = -1;
      try {
        port = std::stoi(text, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != text.size() || port < 0 || port > 65535) {
        std::cerr << "riftc inspect: --imposter takes a port number, not '" << text << "'\n";
        return std::nullopt;
      }
      options.port = port;
    } else if (arg == "--format" && has_value) {
      options.format = args[++i];
      if (options.format != "text" && options.format != "dot" && options.format != "json") {
        std::cerr << "riftc inspect: --format must be text, dot or json, not '" << options.format
                  << "'\n";
        return std::nullopt;
      }
    } else if (arg == "--noParse") {
      options.no_parse = true;
    } else if (!arg.empty() && arg[0] == '-') {
      std::cerr << "riftc inspect: unknown or incomplete option '" << arg << "'\n" << kUsage;
      return std::nullopt;
    } else if (options.config.empty()) {
      options.config = arg;
    } else {
      std::cerr << "riftc inspect: more than one CONFIG ('" << options.config << "', '" << arg
                << "')\n";
      return std::nullopt;
    }
  }
  if (options.config.empty()) {
    std::cerr << kUsage;
    return std::nullopt;
  }
  return options;
}

// One imposter, planned and analyzed.
struct Inspected {
  rift::ir::Imposter imposter;
  std::shared_ptr<const rift::plan::Tree> tree;
  std::vector<rift::analysis::Finding> findings;
};

std::string imposter_title(const rift::ir::Imposter& imposter, size_t position) {
  std::string title = "imposter ";
  title += imposter.port ? std::to_string(*imposter.port)
                         : "#" + std::to_string(position) + " (no port)";
  if (imposter.name) title += " \"" + *imposter.name + "\"";
  title += " (" + imposter.protocol + ")";
  return title;
}

// Parses and plans one imposter document; prints the errors and returns nullopt on failure.
std::optional<Inspected> inspect_document(const rift::ir::Json& document, const std::string& file,
                                          size_t position) {
  rift::frontends::ParseOptions parse_options;
  parse_options.allow_injection = true;
  auto parsed = rift::frontends::parse_imposter(document, parse_options);
  if (auto* errors = std::get_if<rift::MbErrors>(&parsed)) {
    for (const auto& error : *errors) {
      std::cerr << file << ": imposter " << position << ": " << error.message << '\n';
    }
    return std::nullopt;
  }
  Inspected out;
  out.imposter = std::get<rift::ir::Imposter>(std::move(parsed));
  auto built = rift::plan::build(out.imposter.stubs, rift::request_protocol(out.imposter.protocol));
  if (auto* error = std::get_if<rift::MbError>(&built)) {
    std::cerr << file << ": " << imposter_title(out.imposter, position) << ": " << error->message
              << '\n';
    return std::nullopt;
  }
  out.tree = std::get<std::shared_ptr<const rift::plan::Tree>>(std::move(built));
  out.findings = rift::analysis::analyze(out.imposter.stubs);
  return out;
}

rift::ir::Json imposter_json(const Inspected& inspected) {
  rift::ir::Json out = rift::ir::Json::object();
  if (inspected.imposter.port) out["port"] = *inspected.imposter.port;
  if (inspected.imposter.name) out["name"] = *inspected.imposter.name;
  out["protocol"] = inspected.imposter.protocol;
  // Keep the plan alive while iterating it (items() of a temporary would dangle).
  const rift::ir::Json plan =
      rift::plan_to_json(*inspected.tree, inspected.imposter.stubs, inspected.findings);
  for (const auto& [key, value] : plan.items()) out[key] = value;
  return out;
}

}  // namespace

int riftc_inspect(const std::vector<std::string>& args) {
  const auto options = parse_args(args);
  if (!options) return 1;

  rift::frontends::ConfigOptions config_options;
  config_options.no_parse = options->no_parse;
  auto loaded = rift::frontends::load_config_file(options->config, config_options);
  if (auto* error = std::get_if<rift::frontends::ConfigError>(&loaded)) {
    std::cerr << "riftc inspect: " << error->to_string() << '\n';
    return 1;
  }
  const auto& documents = std::get<std::vector<rift::ir::Json>>(loaded);

  std::vector<Inspected> inspected;
  bool failed = false;
  for (size_t position = 0; position < documents.size(); ++position) {
    const auto& document = documents[position];
    if (options->port) {
      // Filter before parsing so one broken imposter does not hide the one asked for.
      const auto port = document.is_object() ? document.find("port") : document.end();
      if (!document.is_object() || port == document.end() || !port->is_number_integer() ||
          port->get<int>() != *options->port) {
        continue;
      }
    }
    auto one = inspect_document(document, options->config, position);
    if (one) {
      inspected.push_back(std::move(*one));
    } else {
      failed = true;
    }
  }
  if (failed) return 1;
  if (inspected.empty()) {
    std::cerr << "riftc inspect: " << options->config << ": "
              << (options->port ? "no imposter on port " + std::to_string(*options->port)
                                : std::string("no imposters"))
              << '\n';
    return 1;
  }

  if (options->format == "json") {
    if (options->port) {
      std::cout << imposter_json(inspected.front()).dump(2) << '\n';
    } else {
      rift::ir::Json all = rift::ir::Json::array();
      for (const auto& one : inspected) all.push_back(imposter_json(one));
      std::cout << rift::ir::Json{{"imposters", std::move(all)}}.dump(2) << '\n';
    }
    return 0;
  }
  for (size_t i = 0; i < inspected.size(); ++i) {
    const Inspected& one = inspected[i];
    if (options->format == "dot") {
      std::cout << "// " << imposter_title(one.imposter, i) << '\n'
                << rift::plan_to_dot(*one.tree, one.imposter.stubs, one.findings);
    } else {
      if (i > 0) std::cout << '\n';
      std::cout << imposter_title(one.imposter, i) << '\n'
                << rift::plan_to_text(*one.tree, one.imposter.stubs, one.findings);
    }
  }
  return 0;
}
