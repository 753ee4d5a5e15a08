// Injection gating (docs/mountebank-semantics.md §8.1): without --allowInjection a stub that would
// run JavaScript or a shell command is refused with Mountebank's `invalid injection` errors
// (source = the stub).
#pragma once

#include "compiler/errors.h"
#include "compiler/ir.h"

namespace rift::frontends {

// The (at most two) injection errors of an upcast stub whose `responses` is a non-empty array.
// Unlike Mountebank, `inject` predicates nested in not/or/and are refused too
// (docs/mountebank-semantics.md §8.1 quirk).
MbErrors injection_errors(const ir::Json& stub);

}  // namespace rift::frontends
