// The reference Rift's extensions to Mountebank's admin JSON (docs/spaces.md,
// docs/rift-compatibility.md): an imposter's `_rift` block and a stub's `space`.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>

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

// Reads the imposter's `_rift` block into `settings` (its flow id source, and the block itself
// for the echo). Every error in it, in the order the fields are read.
MbErrors parse_rift_block(const ir::Json& imposter, ir::ImposterSettings& settings);

}  // namespace rift::frontends
