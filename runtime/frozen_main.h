// The entry point of a frozen mock: a binary `riftc compile` built from one config, serving its
// imposters with matchers compiled into it. Takes `rift start`'s options (`--port`, `--host`,
// `--keepAlive` ...), plus `--about`; needs no config file, compiler or LLVM at run time.
#pragma once

#include <cstddef>

#include "codegen/compiled_module.h"

namespace rift {

struct FrozenBuild {
  const char* imposters_json;  // the array of imposter documents riftc loaded
  const compiled::Module* const* modules;
  size_t module_count;
  const char* config_name;    // the path riftc was given
  const char* config_digest;  // sha256 of imposters_json
  const char* riftc_version;
  const char* build_date;  // UTC, ISO 8601
};

int frozen_main(int argc, char** argv, const FrozenBuild& build);

}  // namespace rift
