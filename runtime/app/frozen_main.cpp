#include "runtime/app/frozen_main.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "codegen/compiled_matcher.h"
#include "runtime/app/frozen_match_bench.h"
#include "runtime/app/serve.h"
#include "runtime/options/options.h"

extern char** environ;

namespace rift {
namespace {

const compiled::Module* module_for(const FrozenBuild& build, int port) {
  for (size_t i = 0; i < build.module_count; ++i) {
    if (build.modules[i]->port == port) return build.modules[i];
  }
  return nullptr;
}

void print_about(const FrozenBuild& build, const ir::Json& imposters) {
  std::cout << "frozen mock built by riftc " << build.riftc_version << "\n"
            << "config: " << build.config_name << "\n"
            << "config digest: sha256:" << build.config_digest << "\n"
            << "built: " << build.build_date << "\n"
            << "imposters:\n";
  for (const ir::Json& imposter : imposters) {
    const int port = imposter.contains("port") && imposter["port"].is_number_integer()
                         ? imposter["port"].get<int>()
                         : 0;
    const compiled::Module* module = module_for(build, port);
    const std::string name = imposter.contains("name") && imposter["name"].is_string()
                                 ? imposter["name"].get<std::string>() + " "
                                 : "";
    std::string printable = name;
    for (char& c : printable) {
      if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    }
    std::cout << "  " << port << " " << printable << "("
              << (module ? std::to_string(module->stub_count) +
                               (module->stub_count == 1 ? " stub, aot" : " stubs, aot")
                         : "interpreter")
              << ")\n";
  }
}

}  // namespace

ir::Json frozen_imposters(const FrozenBuild& build) {
  ir::Json imposters = ir::Json::array();
  for (size_t i = 0; i < build.imposter_count; ++i) {
    imposters.push_back(ir::Json::parse(build.imposter_documents[i]));
  }
  return imposters;
}

int frozen_main(int argc, char** argv, const FrozenBuild& build) {
  std::vector<std::string> args(argv + 1, argv + argc);
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--about") {
      print_about(build, frozen_imposters(build));
      return 0;
    }
    if (args[i] == "--match-bench" && i + 1 < args.size()) {
      long iterations = 1000;
      if (i + 3 < args.size() && args[i + 2] == "--iterations") {
        iterations = std::max(1L, std::atol(args[i + 3].c_str()));
      }
      return run_match_bench(build, args[i + 1], iterations);
    }
  }
  auto parsed = parse_options(args, environ);
  if (auto* error = std::get_if<std::string>(&parsed)) {
    std::cerr << *error << "\n\nA frozen mock takes `rift start`'s options, and --about.\n";
    return 1;
  }
  Options options = std::get<Options>(parsed);
  if (options.show_version) {
    std::cout << build.riftc_version << '\n';
    return 0;
  }
  if (options.show_help) {
    std::cout << "A frozen mock of " << build.config_name << ", built by riftc "
              << build.riftc_version << ".\nIt takes `rift start`'s options (below) and "
              << "--about; its imposters are built in and cannot be changed.\n\n"
              << usage_text();
    return 0;
  }
  if (options.command != "start") {
    std::cerr << "A frozen mock only starts (`" << options.command
              << "` is for rift itself); stop it with SIGINT or SIGTERM.\n";
    return 1;
  }
  if (options.configfile) {
    std::cerr << "A frozen mock serves the config it was built from; --configfile is refused.\n";
    return 1;
  }
  options.frozen = true;

  ServeSetup setup;
  setup.name = "rift frozen mock of " + std::string(build.config_name) + ", riftc";
  setup.version = build.riftc_version;
  // Not `setup.imposters`: one at a time, each parsed only when its turn comes, so the first
  // imposter answers before the last one is even parsed. riftc compile checked them together.
  setup.imposter_documents.assign(build.imposter_documents,
                                  build.imposter_documents + build.imposter_count);
  setup.source = build.config_name;
  setup.compiled =
      [&build](const ir::Imposter& config,
               const std::shared_ptr<const plan::Tree>& tree) -> std::unique_ptr<const Matcher> {
    const compiled::Module* module = module_for(build, config.port.value_or(0));
    if (module == nullptr) return nullptr;
    auto bound = compiled::bind(*module, config.stubs, tree);
    if (auto* reason = std::get_if<std::string>(&bound)) {
      std::cerr << "warning: " << *reason << "; imposter " << config.port.value_or(0)
                << " falls back to the interpreter\n";
      return nullptr;
    }
    return std::move(std::get<std::unique_ptr<Matcher>>(bound));
  };
  return serve(options, setup);
}

}  // namespace rift
