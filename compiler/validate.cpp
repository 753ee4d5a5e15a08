#include "compiler/validate.h"

#include "compiler/predicate_context.h"
#include "compiler/predicate_eval.h"
#include "compiler/request.h"

namespace rift {

MbErrors validate_predicates(const ir::Stub& stub) {
  MbErrors errors;
  // Mountebank's dry-run request (spec 2.3 step 4).
  Request request;
  request.method = "GET";
  request.path = "/";
  request.body = std::string();
  request.form = KeyValues{};
  RequestContext context(request);
  context.caches().dry_run = true;

  for (const auto& predicate : stub.predicates) {
    auto prepared = PreparedPredicate::prepare(predicate);
    if (auto* error = std::get_if<MbError>(&prepared)) {
      errors.push_back(std::move(*error));
      continue;
    }
    try {
      // Mountebank evaluates every predicate (no short-circuit) so each can report.
      (void)std::get<PreparedPredicate>(prepared).evaluate(context);
    } catch (const EvalError& error) {
      errors.push_back(error.error());
    }
  }
  return errors;
}

}  // namespace rift
