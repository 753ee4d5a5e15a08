#include "compiler/validate.h"

#include "compiler/predicate_context.h"

namespace rift {
namespace {

// Mountebank's dry-run request (docs/mountebank-semantics.md §2.3 step 4).
Request dry_run_request() {
  Request request;
  request.method = "GET";
  request.path = "/";
  request.body = std::string();
  request.form = KeyValues{};
  return request;
}

}  // namespace

PredicateValidator::PredicateValidator() : request_(dry_run_request()), context_(request_) {
  context_.caches().dry_run = true;
}

MbErrors PredicateValidator::validate(const std::vector<ir::Predicate>& predicates) {
  MbErrors errors;
  for (const auto& predicate : predicates) {
    auto prepared = PreparedPredicate::prepare(predicate);
    if (auto* error = std::get_if<MbError>(&prepared)) {
      errors.push_back(std::move(*error));
      continue;
    }
    try {
      // Mountebank evaluates every predicate (no short-circuit) so each can report.
      (void)std::get<PreparedPredicate>(prepared).evaluate(context_);
    } catch (const EvalError& error) {
      errors.push_back(error.error());
    }
  }
  return errors;
}

MbErrors validate_predicates(const ir::Stub& stub) {
  PredicateValidator validator;
  return validator.validate(stub.predicates);
}

}  // namespace rift
