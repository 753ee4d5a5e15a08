// Codegen: the main translation unit of a frozen mock: the config it was built from (embedded,
// so nothing is read at run time), the list of compiled modules, and the `--about` facts.
#pragma once

#include <string>
#include <vector>

#include "compiler/ir.h"

namespace rift::codegen {

struct FrozenFacts {
  std::string config_name;
  std::string riftc_version;
  std::string build_date;  // UTC, ISO 8601
};

// sha256 of the embedded imposters, hex: what `--about` reports as the config's digest.
std::string config_digest(const ir::Json& imposters);

// `imposters` is the array of imposter documents; `module_symbols` the compiled::Module each
// matcher unit exports.
std::string emit_frozen_main(const ir::Json& imposters,
                             const std::vector<std::string>& module_symbols,
                             const FrozenFacts& facts);

}  // namespace rift::codegen
