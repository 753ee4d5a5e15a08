// `riftc`: the stub compiler's command line. This file only dispatches; each subcommand lives in
// its own riftc_<command>.cpp (see riftc_commands.h).
#include <iostream>
#include <string>
#include <vector>

#include "tools/riftc_commands.h"

#ifndef RIFT_VERSION
#define RIFT_VERSION "unknown"
#endif

namespace {

constexpr const char* kUsage =
    "usage: riftc <command> [arguments]\n"
    "\n"
    "commands:\n"
    "  inspect CONFIG [--imposter PORT] [--format text|dot|json]\n"
    "      the decision tree of each imposter, its candidate-set sizes, and the stubs that can\n"
    "      never match (shadowed by an earlier stub) or that duplicate another\n"
    "  explain CONFIG --request 'METHOD /path?query' [-H 'Name: value'] [-d BODY]\n"
    "      which stub answers a request and why; on a miss, the closest stubs\n"
    "  compile CONFIG -o BIN [--emit-cpp DIR]\n"
    "      build a frozen mock: one executable serving CONFIG's imposters with compiled\n"
    "      matchers; --emit-cpp keeps the generated C++ in DIR\n"
    "  serve [rift start options]\n"
    "      the server with the JIT tier required: every admin edit is compiled in the\n"
    "      background and hot-swapped in (same as rift start --engine jit)\n"
    "\n"
    "CONFIG is any document `rift start --configfile` accepts (JSON or YAML).\n"
    "options: --help, --version\n";

#ifdef RIFT_NO_EXPLAIN
int explain_missing() {
  std::cerr << "riftc explain is not built\n";
  return 2;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string command = args.front();
  args.erase(args.begin());
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return 0;
  }
  if (command == "--version" || command == "-v" || command == "version") {
    std::cout << "riftc " << RIFT_VERSION << '\n';
    return 0;
  }
  if (command == "inspect") return riftc_inspect(args);
  if (command == "explain") {
#ifdef RIFT_NO_EXPLAIN
    return explain_missing();
#else
    return riftc_explain(args);
#endif
  }
  if (command == "compile") return riftc_compile(args);
  if (command == "serve") return riftc_serve(args);
  std::cerr << "riftc: unknown command '" << command << "'\n\n" << kUsage;
  return 2;
}
