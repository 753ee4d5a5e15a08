// One text per JSON value: compact, object keys sorted at every level. What the flow store keeps
// and compares (so compare-and-set matches values, not spellings), what a script's JSON body is
// written as, and the data of an event-stream frame, all as the reference Rift writes them.
#pragma once

#include <string>

#include "compiler/ir.h"

namespace rift {

// Strings that are not UTF-8 have their bad bytes replaced (U+FFFD) rather than throwing.
std::string canonical_json(const ir::Json& value);

}  // namespace rift
