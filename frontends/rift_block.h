// The reference Rift's extensions to Mountebank's admin JSON (docs/spaces.md,
// docs/rift-compatibility.md): an imposter's `_rift` block and a stub's `space`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "compiler/errors.h"
#include "compiler/ir.h"

namespace rift::frontends {

// Why `id` cannot name a space, or nullopt: a space id is any text without control characters
// (they could not travel in the flow id's header, nor in a path).
std::optional<MbError> space_id_error(std::string_view id);

// A stub's `space`: unset when absent, else its id, or the error for a non-string or an id
// space_id_error refuses.
std::variant<std::optional<std::string>, MbError> parse_space(const ir::Json& stub);

// A stub's scenario fields (docs/scenarios.md) into `out`: scenarioName, requiredScenarioState,
// newScenarioState, each a string when present. With a required state, the gate predicate goes
// first in out.predicates, so every matcher checks it before the stub's own predicates, as the
// reference does. Call after the stub's predicates are parsed.
std::optional<MbError> parse_scenario(const ir::Json& stub, ir::Stub& out);

// A stub's `id` into `out`: a string, or null / absent for none.
std::optional<MbError> parse_stub_id(const ir::Json& stub, ir::Stub& out);

// A stub's `routePattern` (docs/route-patterns.md): a string, or a 400.
std::optional<MbError> parse_route_pattern(const ir::Json& stub, ir::Stub& out);

// The 409 `resource conflict` for the first id two of `stubs` share, or nullopt.
std::optional<MbError> duplicate_stub_id(const std::vector<ir::Stub>& stubs);

// Reads the imposter's Rift extensions into `settings`: the `_rift` block (its flow id source,
// and the block itself for the echo) and `enabled`. Every error in them, in the order read.
MbErrors parse_rift_block(const ir::Json& imposter, ir::ImposterSettings& settings);

// The imposter's `_rift.seed`, checked by parse_rift_block; unset without one.
std::optional<uint64_t> rift_seed(const std::optional<ir::Json>& rift);

}  // namespace rift::frontends
