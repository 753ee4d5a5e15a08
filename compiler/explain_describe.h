// Words for a failed clause: the request's value the clause looked at, and why it failed.
// Display only; whether a clause holds is always decided by PreparedPredicate.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compiler/ir.h"
#include "compiler/predicate_eval.h"

namespace rift::explaining {

// The request's value at `keys` (top-level field first, then nested keys) as the field operator
// `predicate` sees it: keys looked up ignoring case unless caseSensitive, `except` removed,
// jsonpath/xpath selected, JSON text parsed where the keys descend into it. Letter case is kept
// (the comparison folds it unless caseSensitive). nullopt when the request has no such value.
std::optional<ir::Json> actual_value(const ir::Predicate& predicate,
                                     const std::vector<std::string>& keys, RequestContext& context);

// e.g. "equals: expected 'x' but the request has 'y'".
std::string failure_reason(const ir::Predicate& clause, const std::string& field,
                           const ir::Json& expected, const std::optional<ir::Json>& actual);

// 'text' for strings, compact JSON otherwise; long values are shortened.
std::string show(const ir::Json& value);

}  // namespace rift::explaining
