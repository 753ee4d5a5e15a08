// Turns emitted sources into a frozen mock executable: re2c, then the system C++ compiler and
// linker against the runtime libraries of the Rift build riftc belongs to.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "codegen/emit_matcher.h"

namespace rift::codegen {

// Where the compiler, re2c, Rift's headers and libraries are; recorded when Rift was built.
struct Toolchain {
  std::string cxx;
  std::string re2c;
  std::vector<std::string> compile_flags;
  std::vector<std::string> link_inputs;  // archives and libraries, in link order
  std::vector<std::string> link_flags;
};
Toolchain build_toolchain();

struct FrozenSources {
  std::vector<EmittedMatcher> matchers;
  std::string main_source;
};

struct BuildOptions {
  std::string output;                   // the executable
  std::optional<std::string> emit_dir;  // keep the sources (and objects) here
  unsigned jobs = 0;                    // parallel compiles; 0: one per core
  bool verbose = false;                 // echo each command
};

// Writes the sources, runs re2c and the compiler. Returns what failed, or nullopt.
std::optional<std::string> build_frozen(const FrozenSources& sources, const BuildOptions& options,
                                        const Toolchain& toolchain);

// Only writes the sources into `dir` (re2c inputs are also run through re2c, so the directory
// holds plain C++ either way). Returns what failed, or nullopt.
std::optional<std::string> write_sources(const FrozenSources& sources, const std::string& dir,
                                         const Toolchain& toolchain, bool verbose);

}  // namespace rift::codegen
