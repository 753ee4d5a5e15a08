// `rift start`: the server in the foreground until SIGINT/SIGTERM. Shared by `rift` and by
// frozen mocks, which differ only in where their imposters come from and how they are matched.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compiler/ir.h"
#include "runtime/imposter/plan_snapshot.h"
#include "runtime/options/options.h"
#include "runtime/tiering/tiering.h"

namespace rift {

struct ServeSetup {
  std::string name = "rift";      // for the start-up banner
  std::string version = "0.1.0";  // idem
  // Imposters to load before the admin port answers; unset: --configfile, if given.
  std::optional<ir::Json> imposters;
  std::string source;  // where `imposters` came from, for error messages
  // Or imposter documents as JSON text, each parsed and started in turn, so the first answers
  // before the last is parsed (a frozen mock: riftc compile checked them together already).
  std::vector<const char*> imposter_documents;
  MatcherFactory compiled;
  // Makes the JIT (codegen/jit) when this build has one; null: `--engine jit` is refused and
  // `auto` serves on the interpreter.
  Tiering::CompilerFactory jit;
};

// Returns the process exit code.
int serve(const Options& options, const ServeSetup& setup);

}  // namespace rift
