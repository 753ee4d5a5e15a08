// The entry point of a frozen mock: a binary `riftc compile` built from one config, serving its
// imposters with matchers compiled into it. Takes `rift start`'s options (`--port`, `--host`,
// `--keepAlive` ...), plus `--about`; needs no config file, compiler or LLVM at run time.
#pragma once

#include <cstddef>

#include "codegen/compiled_module.h"
#include "compiler/ir.h"

namespace rift {

struct FrozenBuild {
  // The imposter documents riftc loaded, one compact JSON text each, in config order: start-up
  // parses each only when its imposter's turn comes (docs/riftc.md, "Start-up").
  const char* const* imposter_documents;
  size_t imposter_count;
  const compiled::Module* const* modules;
  size_t module_count;
  const char* config_name;    // the path riftc was given
  const char* config_digest;  // sha256 of the documents as one compact JSON array
  const char* riftc_version;
  const char* build_date;  // UTC, ISO 8601
};

int frozen_main(int argc, char** argv, const FrozenBuild& build);

// Every imposter document as one array (--about, --match-bench).
ir::Json frozen_imposters(const FrozenBuild& build);

}  // namespace rift
