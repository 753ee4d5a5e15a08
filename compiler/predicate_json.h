// Rebuilds a predicate's Mountebank JSON from the IR, for error `source` fields and explain.
#pragma once

#include "compiler/ir.h"

namespace rift {

// {"<op>": ..., "caseSensitive"?: true, "except"?: "...", "jsonpath"?: {...}, "xpath"?: {...}}
// with only the modifiers that are set.
ir::Json predicate_to_json(const ir::Predicate& predicate);

}  // namespace rift
