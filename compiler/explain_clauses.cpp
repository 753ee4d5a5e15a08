// Clauses are judged by building single-field predicates (same operator and modifiers, `fields`
// reduced to one key path) and running PreparedPredicate on them, so the explanation uses the
// interpreter's semantics exactly. The whole predicate is evaluated first: when it holds, all of
// its clauses count as passed, so splitting can never make a holding predicate look failed.
#include "compiler/explain_clauses.h"

#include <string>
#include <vector>

#include "compiler/explain_describe.h"
#include "compiler/predicate_json.h"

namespace rift::explaining {
namespace {

struct Outcome {
  bool holds = false;
  std::optional<MbError> error;  // prepare failed or evaluation threw (the server answers 500)
};

Outcome evaluate(const ir::Predicate& predicate, RequestContext& context) {
  auto prepared = PreparedPredicate::prepare(predicate);
  if (auto* error = std::get_if<MbError>(&prepared)) return {false, *error};
  try {
    return {std::get<PreparedPredicate>(prepared).evaluate(context), std::nullopt};
  } catch (const EvalError& error) {
    return {false, error.error()};
  }
}

struct Clause {
  ir::Predicate predicate;        // the single-field predicate
  std::vector<std::string> keys;  // top-level field, then nested keys
  ir::Json expected;
};

// Same operator and modifiers, `fields` reduced to the one key path.
ir::Predicate single_field(const ir::Predicate& predicate, const std::vector<std::string>& keys,
                           const ir::Json& expected) {
  ir::Predicate out;
  out.op = predicate.op;
  out.case_sensitive = predicate.case_sensitive;
  out.except = predicate.except;
  out.jsonpath = predicate.jsonpath;
  out.xpath = predicate.xpath;
  ir::Json fields = expected;
  for (auto key = keys.rbegin(); key != keys.rend(); ++key) {
    ir::Json wrapper = ir::Json::object();
    wrapper[*key] = std::move(fields);
    fields = std::move(wrapper);
  }
  out.fields = std::move(fields);
  return out;
}

// deepEquals compares whole values, so its clauses stop at the top-level fields; the other
// operators check every key of an expected object on its own, so nested keys are clauses.
void split(const ir::Predicate& predicate, const ir::Json& expected, std::vector<std::string>& keys,
           std::vector<Clause>& out) {
  const bool descend = keys.empty() || predicate.op != ir::Op::kDeepEquals;
  if (descend && expected.is_object() && !expected.empty()) {
    for (auto it = expected.begin(); it != expected.end(); ++it) {
      keys.push_back(it.key());
      split(predicate, it.value(), keys, out);
      keys.pop_back();
    }
    return;
  }
  out.push_back({single_field(predicate, keys, expected), keys, expected});
}

std::string join(const std::vector<std::string>& keys) {
  std::string out;
  for (const auto& key : keys) out += (out.empty() ? "" : ".") + key;
  return out;
}

ir::Json with_clause(const ir::Predicate& predicate) {
  ir::Json out = ir::Json::object();
  out["clause"] = predicate_to_json(predicate);
  return out;
}

ir::Json error_failure(const ir::Predicate& predicate, const MbError& error) {
  ir::Json out = with_clause(predicate);
  out["reason"] = std::string("error: ") + error.message;
  out["error"] = error.to_json();
  return out;
}

class Judge {
 public:
  explicit Judge(RequestContext& context) : context_(context) {}

  // True when `predicate` holds. Adds the clauses that pass to `passed`; on failure, describes
  // the first failing clause in `failure`.
  bool judge(const ir::Predicate& predicate, int& passed, ir::Json& failure) {
    switch (predicate.op) {
      case ir::Op::kAnd:
        for (const auto& child : predicate.children) {
          if (!judge(child, passed, failure)) return false;
        }
        return true;
      case ir::Op::kOr:
      case ir::Op::kNot:
      case ir::Op::kInject:
      case ir::Op::kScenario:
        return judge_whole(predicate, passed, failure);
      default:
        return judge_fields(predicate, passed, failure);
    }
  }

 private:
  // or / not / inject / a scenario gate: one clause each.
  bool judge_whole(const ir::Predicate& predicate, int& passed, ir::Json& failure) {
    const Outcome outcome = evaluate(predicate, context_);
    if (outcome.holds) {
      ++passed;
      return true;
    }
    if (outcome.error) {
      failure = error_failure(predicate, *outcome.error);
      return false;
    }
    failure = with_clause(predicate);
    if (predicate.op == ir::Op::kNot) {
      failure["reason"] =
          "not: the request satisfies " + predicate_to_json(predicate.children.front()).dump();
    } else if (predicate.op == ir::Op::kOr) {
      ir::Json alternatives = ir::Json::array();
      for (const auto& child : predicate.children) {
        int ignored = 0;
        ir::Json child_failure;
        if (!judge(child, ignored, child_failure)) alternatives.push_back(child_failure);
      }
      failure["reason"] =
          "or: none of the " + std::to_string(predicate.children.size()) + " alternatives holds";
      failure["alternatives"] = std::move(alternatives);
    } else if (predicate.op == ir::Op::kScenario) {
      const std::string name = predicate.fields.value("scenarioName", "");
      const auto state = context_.scenario_state(name);
      failure["reason"] = "scenario '" + name + "' is " +
                          (state ? "in state '" + *state + "'" : "in a state that cannot be read") +
                          ", not '" + predicate.fields.value("requiredScenarioState", "") + "'";
    } else {
      failure["reason"] = "inject: the function returned a falsy value";
    }
    return false;
  }

  bool judge_fields(const ir::Predicate& predicate, int& passed, ir::Json& failure) {
    std::vector<Clause> clauses;
    std::vector<std::string> keys;
    split(predicate, predicate.fields.is_object() ? predicate.fields : ir::Json::object(), keys,
          clauses);
    // An empty `fields` splits into one clause with no key: it is the predicate itself.
    if (clauses.size() == 1 && clauses.front().keys.empty()) clauses.clear();

    const Outcome whole = evaluate(predicate, context_);
    if (whole.holds) {
      passed += static_cast<int>(clauses.size());
      return true;
    }
    for (const Clause& clause : clauses) {
      const Outcome outcome = evaluate(clause.predicate, context_);
      if (outcome.holds) {
        ++passed;
        continue;
      }
      if (outcome.error) {
        failure = error_failure(clause.predicate, *outcome.error);
        failure["field"] = join(clause.keys);
        return false;
      }
      const std::string field = join(clause.keys);
      const auto actual = actual_value(clause.predicate, clause.keys, context_);
      failure = with_clause(clause.predicate);
      failure["field"] = field;
      failure["expected"] = clause.expected;
      if (actual) failure["actual"] = *actual;
      failure["reason"] = failure_reason(clause.predicate, field, clause.expected, actual);
      return false;
    }
    if (whole.error) {
      failure = error_failure(predicate, *whole.error);
      return false;
    }
    // Every key holds on its own: against an array, one element must satisfy them all at once.
    failure = with_clause(predicate);
    failure["expected"] = predicate.fields;
    failure["reason"] = std::string(ir::op_name(predicate.op)) +
                        ": every field holds on its own, but no single array element of the "
                        "request satisfies them together";
    return false;
  }

  RequestContext& context_;
};

}  // namespace

Verdict judge_stub(const ir::Stub& stub, RequestContext& context) {
  Verdict verdict;
  Judge judge(context);
  for (size_t index = 0; index < stub.predicates.size(); ++index) {
    const ir::Predicate& predicate = stub.predicates[index];
    ir::Json failure;
    if (judge.judge(predicate, verdict.passed_clauses, failure)) continue;
    // The stub's own predicate and its index first, then what the clause judge found.
    ir::Json described = ir::Json::object();
    described["predicate"] = predicate_to_json(predicate);
    described["index"] = index;
    for (auto it = failure.begin(); it != failure.end(); ++it) described[it.key()] = it.value();
    verdict.failed_clause = std::move(described);
    break;
  }
  return verdict;
}

}  // namespace rift::explaining
