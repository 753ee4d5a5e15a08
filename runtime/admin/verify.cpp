#include "runtime/admin/verify.h"

#include <string>
#include <variant>
#include <vector>

#include "compiler/explain_clauses.h"
#include "compiler/predicate_eval.h"
#include "compiler/predicate_json.h"
#include "frontends/mountebank_json.h"
#include "runtime/imposter/imposter.h"

namespace rift::admin {
namespace {

struct Options {
  ir::Json predicates = ir::Json::array();
  std::optional<std::string> flow_id;
  bool include_requests = false;
  bool include_closest = false;
};

std::variant<Options, MbError> read_options(const ir::Json& body) {
  Options out;
  if (!body.is_object()) return bad_data("the body must be an object");
  if (auto it = body.find("predicates"); it != body.end() && !it->is_null()) {
    if (!it->is_array()) return bad_data("'predicates' must be an array", *it);
    out.predicates = *it;
  }
  if (auto it = body.find("flowId"); it != body.end() && !it->is_null()) {
    if (!it->is_string()) return bad_data("'flowId' must be a string", *it);
    out.flow_id = it->get<std::string>();
  }
  for (auto [name, flag] : {std::pair{"includeRequests", &out.include_requests},
                            std::pair{"includeClosest", &out.include_closest}}) {
    if (auto it = body.find(name); it != body.end() && !it->is_null()) {
      if (!it->is_boolean()) return bad_data("'" + std::string(name) + "' must be a boolean", *it);
      *flag = it->get<bool>();
    }
  }
  return out;
}

// The request fields a field predicate names (all of the request for the others), as the
// closest miss shows what it had instead.
ir::Json actual_for(const ir::Predicate& predicate, const ir::Json& request) {
  const bool fields = predicate.fields.is_object() && !predicate.fields.empty() &&
                      !predicate.jsonpath && !predicate.xpath;
  if (!fields) return request;
  ir::Json actual = ir::Json::object();
  for (const auto& [name, expected] : predicate.fields.items()) {
    if (auto it = request.find(name); it != request.end()) actual[name] = *it;
  }
  return actual;
}

}  // namespace

void post_verify(AdminState& state, Call& call) {
  auto options = read_options(call.body);
  if (auto* error = std::get_if<MbError>(&options)) return call.fail(400, {*error});
  const Options& asked = std::get<Options>(options);
  // Validated as a stub's predicates are: the same messages, the same injection gate.
  const ir::Json as_stub = {{"predicates", asked.predicates},
                            {"responses", ir::Json::array({{{"is", ir::Json::object()}}})}};
  auto parsed = frontends::parse_stub(as_stub, {state.options.allow_injection});
  if (auto* errors = std::get_if<MbErrors>(&parsed)) return call.fail(400, *errors);
  const ir::Stub& stub = std::get<ir::Stub>(parsed);
  std::vector<PreparedPredicate> prepared;
  for (const auto& predicate : stub.predicates) {
    auto ready = PreparedPredicate::prepare(predicate);
    if (auto* error = std::get_if<MbError>(&ready)) return call.fail(400, {*error});
    prepared.push_back(std::get<PreparedPredicate>(std::move(ready)));
  }

  const Imposter& imposter = *call.imposter;
  JournalFilter in_flow;
  if (asked.flow_id) {
    in_flow = [flow = *asked.flow_id](const Request& request) { return request.flow_id == flow; };
  }
  const std::vector<RecordedRequest> recorded = imposter.recorded_copies(in_flow);
  ir::Json matched = ir::Json::array();
  size_t matched_count = 0;
  int closest = -1;
  size_t closest_passed = 0;
  try {
    for (size_t i = 0; i < recorded.size(); ++i) {
      RequestContext context(recorded[i].request);
      context.set_injector(imposter.predicate_injector());
      size_t passed = 0;
      for (const auto& predicate : prepared) passed += predicate.evaluate(context) ? 1 : 0;
      if (passed == prepared.size()) {
        ++matched_count;
        if (asked.include_requests) matched.push_back(recorded[i].json);
      } else if (closest < 0 || passed >= closest_passed) {  // ties: the most recent
        closest = static_cast<int>(i);
        closest_passed = passed;
      }
    }
  } catch (const EvalError& error) {
    return call.fail(400, {error.error()});
  }

  ir::Json out = {{"matched", matched_count}, {"total", recorded.size()}};
  if (asked.include_requests) out["requests"] = std::move(matched);
  if (asked.include_closest && closest >= 0 && !prepared.empty()) {
    const RecordedRequest& miss = recorded[static_cast<size_t>(closest)];
    ir::Json failed = ir::Json::array();
    RequestContext context(miss.request);
    context.set_injector(imposter.predicate_injector());
    for (size_t p = 0; p < prepared.size(); ++p) {
      if (prepared[p].evaluate(context)) continue;
      const ir::Predicate& predicate = stub.predicates[p];
      ir::Json entry = {{"predicate", predicate_to_json(predicate)},
                        {"actual", actual_for(predicate, miss.json)}};
      // Which clause failed and why, as explain says it.
      ir::Stub alone;
      alone.predicates = {predicate};
      auto verdict = explaining::judge_stub(alone, context);
      if (verdict.failed_clause && verdict.failed_clause->contains("reason")) {
        entry["reason"] = (*verdict.failed_clause)["reason"];
      }
      failed.push_back(std::move(entry));
    }
    out["closest"] = {{"request", miss.json}, {"failedPredicates", std::move(failed)}};
  }
  call.send(200, out);
}

}  // namespace rift::admin
