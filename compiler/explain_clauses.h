// One stub, judged clause by clause (see explain.h for what a clause is): how many clauses hold
// before the first one that fails, and that failure described.
#pragma once

#include <optional>

#include "compiler/ir.h"
#include "compiler/predicate_eval.h"

namespace rift::explaining {

struct Verdict {
  int passed_clauses = 0;
  // The failedClause object of the report; nullopt when every predicate holds.
  std::optional<ir::Json> failed_clause;
};

Verdict judge_stub(const ir::Stub& stub, RequestContext& context);

}  // namespace rift::explaining
