// The creation-time dry run of a stub's predicates (spec 2.3 step 4): every predicate is prepared
// and evaluated against Mountebank's empty request, and what would fail is reported as
// `bad data` (invalid regex, malformed xpath). Inject predicates count as true and never run.
#pragma once

#include "compiler/errors.h"
#include "compiler/ir.h"

namespace rift {

MbErrors validate_predicates(const ir::Stub& stub);

}  // namespace rift
