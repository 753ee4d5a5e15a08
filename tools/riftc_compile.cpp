// `riftc compile CONFIG -o BIN [--emit-cpp DIR]`: plans each imposter of a --configfile document,
// emits its decision tree as C++ (codegen/), and builds a frozen mock: one executable that serves
// those imposters with the compiled matchers and needs no config, compiler or LLVM to run.
// With --emit-cpp alone, only the sources are written.
#include <chrono>
#include <ctime>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "codegen/build_frozen.h"
#include "codegen/emit_frozen.h"
#include "codegen/emit_matcher.h"
#include "compiler/plan.h"
#include "frontends/config_file.h"
#include "frontends/mountebank_json.h"
#include "runtime/imposter/tls.h"
#include "tools/riftc_commands.h"

#ifndef RIFT_VERSION
#define RIFT_VERSION "unknown"
#endif

namespace {

constexpr const char* kUsage =
    "usage: riftc compile CONFIG -o BIN [--emit-cpp DIR] [--noParse] [--jobs N] [--verbose]\n"
    "       riftc compile CONFIG --emit-cpp DIR\n";

struct CompileOptions {
  std::string config;
  std::optional<std::string> output;
  std::optional<std::string> emit_dir;
  bool no_parse = false;
  bool verbose = false;
  unsigned jobs = 0;
};

std::optional<CompileOptions> parse_args(const std::vector<std::string>& args) {
  CompileOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const bool has_value = i + 1 < args.size();
    if ((arg == "-o" || arg == "--output") && has_value) {
      options.output = args[++i];
    } else if (arg == "--emit-cpp" && has_value) {
      options.emit_dir = args[++i];
    } else if (arg == "--jobs" && has_value) {
      const std::string& text = args[++i];
      if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos ||
          text.size() > 3) {
        std::cerr << "riftc compile: --jobs takes a number, not '" << text << "'\n";
        return std::nullopt;
      }
      options.jobs = static_cast<unsigned>(std::stoi(text));
    } else if (arg == "--noParse") {
      options.no_parse = true;
    } else if (arg == "--verbose" || arg == "-v") {
      options.verbose = true;
    } else if (!arg.empty() && arg[0] == '-') {
      std::cerr << "riftc compile: unknown or incomplete option '" << arg << "'\n" << kUsage;
      return std::nullopt;
    } else if (options.config.empty()) {
      options.config = arg;
    } else {
      std::cerr << "riftc compile: one CONFIG only ('" << arg << "' is extra)\n" << kUsage;
      return std::nullopt;
    }
  }
  if (options.config.empty() || (!options.output && !options.emit_dir)) {
    std::cerr << kUsage;
    return std::nullopt;
  }
  return options;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm parts{};
  gmtime_r(&now, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text;
}

void print_errors(const std::string& where, const rift::MbErrors& errors) {
  for (const rift::MbError& error : errors) {
    std::cerr << "riftc compile: " << where << ": " << error.code << ": " << error.message << '\n';
  }
}

}  // namespace

int riftc_compile(const std::vector<std::string>& args) {
  const auto options = parse_args(args);
  if (!options) return 2;
  const auto started = std::chrono::steady_clock::now();

  auto loaded = rift::frontends::load_config_file(options->config, {options->no_parse});
  if (auto* error = std::get_if<rift::frontends::ConfigError>(&loaded)) {
    std::cerr << "riftc compile: " << error->to_string() << '\n';
    return 1;
  }
  auto documents = std::get<std::vector<rift::ir::Json>>(std::move(loaded));

  rift::codegen::FrozenSources sources;
  std::vector<std::string> symbols;
  std::set<int> ports;
  size_t stubs = 0;
  for (size_t i = 0; i < documents.size(); ++i) {
    const std::string where = "imposter " + std::to_string(i);
    // Injection is accepted here as `rift --allowInjection` would; the mock refuses it at
    // start-up unless it is started with --allowInjection.
    auto parsed = rift::frontends::parse_imposter(documents[i], {/*allow_injection=*/true});
    if (auto* errors = std::get_if<rift::MbErrors>(&parsed)) {
      print_errors(where, *errors);
      return 1;
    }
    const auto& imposter = std::get<rift::ir::Imposter>(parsed);
    if (auto refused = rift::tls_creation_errors(imposter); !refused.empty()) {
      print_errors(where, refused);
      return 1;
    }
    if (!imposter.port) {
      std::cerr << "riftc compile: " << where
                << " has no port; a frozen mock's imposters need fixed ports\n";
      return 1;
    }
    // Mountebank accepts "port": "4545"; the mock finds its modules by the number.
    documents[i]["port"] = *imposter.port;
    if (!ports.insert(*imposter.port).second) {
      std::cerr << "riftc compile: port " << *imposter.port << " is used twice\n";
      return 1;
    }
    auto tree = rift::plan::build(imposter.stubs, rift::request_protocol(imposter.protocol));
    if (auto* error = std::get_if<rift::MbError>(&tree)) {
      print_errors(where, {*error});
      return 1;
    }
    const std::string stem = "imposter_" + std::to_string(*imposter.port);
    const std::string label = "imposter " + std::to_string(*imposter.port) +
                              (imposter.name ? " \"" + *imposter.name + "\"" : "") + " of " +
                              options->config;
    sources.matchers.push_back(
        rift::codegen::emit_matcher(*std::get<std::shared_ptr<const rift::plan::Tree>>(tree),
                                    imposter.stubs, stem, *imposter.port, label));
    symbols.push_back(sources.matchers.back().symbol);
    stubs += imposter.stubs.size();
  }
  sources.main_source = rift::codegen::emit_frozen_main(rift::ir::Json(documents), symbols,
                                                        {options->config, RIFT_VERSION, utc_now()});

  const auto toolchain = rift::codegen::build_toolchain();
  std::optional<std::string> failure;
  if (options->output) {
    rift::codegen::BuildOptions build;
    build.output = *options->output;
    build.emit_dir = options->emit_dir;
    build.jobs = options->jobs;
    build.verbose = options->verbose;
    failure = rift::codegen::build_frozen(sources, build, toolchain);
  } else {
    failure =
        rift::codegen::write_sources(sources, *options->emit_dir, toolchain, options->verbose);
  }
  if (failure) {
    std::cerr << "riftc compile: " << *failure << '\n';
    return 1;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cerr << "riftc compile: "
            << (options->output ? "built " + *options->output : "wrote " + *options->emit_dir)
            << " (" << documents.size() << " imposter" << (documents.size() == 1 ? "" : "s") << ", "
            << stubs << " stub" << (stubs == 1 ? "" : "s") << ") in " << seconds << " s\n";
  return 0;
}
