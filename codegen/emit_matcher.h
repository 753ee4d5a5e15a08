// Codegen: one imposter's plan::Tree as a readable C++ translation unit exporting a
// compiled::Module (see compiled_module.h for the contract).
//
// The tree's shape becomes code (a method chain, one function per method node) and its bulk
// becomes data: candidate lists, residual-predicate lists and open-addressing string tables,
// each row commented with the stub index and predicate it came from. Small literal sets (exact
// paths, path prefixes) are written as re2c rules, so one DFA reads the path once; large ones
// stay tables, because a 100,000-way DFA is slower to build and no faster to run than a hash.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/ir.h"
#include "compiler/plan.h"

namespace rift::codegen {

struct EmitOptions {
  // Literal sets up to this size become re2c DFAs; larger ones hash tables.
  size_t re2c_max_keys = 64;
  // The namespace the unit's tables and functions live in; empty: an anonymous one. Tests that
  // put many units into one file give each its own.
  std::string unit_namespace;
  // Emit the #include lines (off when units are concatenated after one set of includes).
  bool includes = true;
};

struct EmittedMatcher {
  std::string stem;    // file name without extension, e.g. "imposter_4545"
  std::string symbol;  // the exported compiled::Module, e.g. "kModule_imposter_4545"
  std::string source;  // C++; re2c input (to be run through re2c) when uses_re2c
  bool uses_re2c = false;
};

// `stubs` is the list `tree` was planned from (its fingerprint is embedded); `label` names the
// imposter in comments.
EmittedMatcher emit_matcher(const plan::Tree& tree, const std::vector<ir::Stub>& stubs,
                            std::string_view stem, int port, std::string_view label,
                            const EmitOptions& options = {});

}  // namespace rift::codegen
