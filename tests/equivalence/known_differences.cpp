#include "tests/equivalence/known_differences.h"

#include <functional>

#include "compiler/predicate_eval.h"
#include "compiler/predicate_value.h"
#include "tests/equivalence/reference_scan.h"

namespace rift::equivalence {
namespace {

// The shape the planner dispatches on: a plain `equals` (no caseSensitive, except, selector).
bool plain_equals(const ir::Predicate& predicate) {
  return predicate.op == ir::Op::kEquals && !predicate.case_sensitive && predicate.except.empty() &&
         !predicate.jsonpath && !predicate.xpath && predicate.fields.is_object();
}

void rewrite_plain_equals(Case& c, const std::function<void(ir::Json&)>& rewrite) {
  for (auto& stub : c.stubs) {
    for (auto& predicate : stub.predicates) {
      if (plain_equals(predicate)) rewrite(predicate.fields);
    }
  }
}

// (1) {"method": "GET", "METHOD": "POST"}: JavaScript keeps the last key that folds to a name,
// the planner dispatches on the first. Keeping only the last is the same predicate.
Case last_key_wins(Case c) {
  rewrite_plain_equals(c, [](ir::Json& fields) {
    ir::Json out = ir::Json::object();
    for (const auto& [key, value] : fields.items()) {
      const std::string name = js::lower(key);
      for (auto it = out.begin(); it != out.end(); ++it) {
        if (js::lower(it.key()) == name) {
          out.erase(it.key());
          break;
        }
      }
      out[key] = value;
    }
    fields = std::move(out);
  });
  return c;
}

// (2) {"path": "/İd"}: the evaluator folds with JavaScript's (Unicode) lower case, the planner's
// dispatch key with ASCII only. Folding the expected value first is the same predicate.
Case fold_expected_values(Case c) {
  rewrite_plain_equals(c, [](ir::Json& fields) {
    for (auto& [key, value] : fields.items()) {
      if (value.is_string()) value = js::lower(value.get<std::string>());
    }
  });
  return c;
}

bool throws(const ir::Stub& stub, const Request& request) {
  try {
    for (const auto& predicate : stub.predicates) {
      auto prepared = PreparedPredicate::prepare(predicate);
      if (prepared.index() != 0) return false;
      RequestContext context(request);
      if (!std::get<0>(prepared).evaluate(context)) return false;
    }
  } catch (const EvalError&) {
    return true;
  }
  return false;
}

// (3) A predicate that throws (an unbound xpath prefix) before a dispatching `equals` the
// request fails: Mountebank evaluates it and answers 500, the tree never reaches the stub.
// Drops exactly those stubs.
Case without_throwing_dispatched_stubs(Case c) {
  std::erase_if(c.stubs, [&](const ir::Stub& stub) {
    if (!throws(stub, c.request)) return false;
    for (const auto& predicate : stub.predicates) {
      if (!plain_equals(predicate)) continue;
      for (const auto& [key, value] : predicate.fields.items()) {
        const std::string name = js::lower(key);
        if (name == "method" || name == "path") return true;
      }
    }
    return false;
  });
  return c;
}

}  // namespace

std::optional<std::string> known_difference(const Tier& tier, const Case& c) {
  struct Known {
    const char* name;
    Case (*rewrite)(Case);
  };
  static constexpr Known kKnown[] = {
      {"planner dispatches on the first of several keys folding to method/path", &last_key_wins},
      {"planner folds dispatch keys with ASCII, the evaluator with JavaScript lower case",
       &fold_expected_values},
      {"planner skips a stub whose earlier predicate would throw",
       &without_throwing_dispatched_stubs},
  };
  for (const auto& known : kKnown) {
    if (!disagrees(tier, known.rewrite(c))) return known.name;
  }
  // Several causes in one case: all rewrites together.
  Case all = c;
  for (const auto& known : kKnown) all = known.rewrite(std::move(all));
  if (!disagrees(tier, all)) return std::string("several known causes together");
  return std::nullopt;
}

}  // namespace rift::equivalence
