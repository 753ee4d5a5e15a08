// Mountebank predicate JSON (docs/mountebank-semantics.md §4.2) to ir::Predicate. Only the first
// operator key in JSON order is used (a Mountebank quirk tests rely on); a predicate without one is
// `missing predicate` with the offending predicate as source, at any nesting depth.
#pragma once

#include <variant>

#include "compiler/errors.h"
#include "compiler/ir.h"

namespace rift::frontends {

std::variant<ir::Predicate, MbError> parse_predicate(const ir::Json& predicate);

}  // namespace rift::frontends
