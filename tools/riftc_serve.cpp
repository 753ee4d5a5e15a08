// `riftc serve`: `rift start` with the JIT tier required, for stubs that change while tests run
// (admin edits are compiled in the background and hot-swapped in; docs/jit.md).
#include <iostream>

#include "runtime/app/serve.h"
#include "runtime/options/options.h"
#include "tools/riftc_commands.h"
#ifdef RIFT_HAVE_JIT
#include "codegen/jit/jit_compiler.h"
#endif

extern char** environ;

int riftc_serve(const std::vector<std::string>& args) {
  // Later options win, so an explicit --engine still overrides the default.
  std::vector<std::string> start = {"start", "--engine", "jit"};
  start.insert(start.end(), args.begin(), args.end());
  auto parsed = rift::parse_options(start, environ);
  if (auto* error = std::get_if<std::string>(&parsed)) {
    std::cerr << "riftc serve: " << *error << "\n";
    return 2;
  }
  const auto& options = std::get<rift::Options>(parsed);
  if (options.show_help) {
    std::cout << rift::usage_text();
    return 0;
  }
  rift::ServeSetup setup;
#ifdef RIFT_HAVE_JIT
  setup.jit = &rift::jit::make_tier_compiler;
#endif
  return rift::serve(options, setup);
}
