// Predicates evaluated over a hostile request (compiler/predicate_eval.h, interpreter.h).
//
// Input: "predicates\n%%\nrequest head\n%%\nbody", or "predicates\n%%\nbody", or the body alone.
// The predicates are a JSON array (each becomes a stub of its own, validated by the frontends as
// an admin edit is); when the part is not such an array a fixed set is used, covering every
// operator on the body, jsonpath and xpath. The head is "METHOD target" then "Name: value"
// lines; the request is built by the server's request builder.
//
// Three ways of answering must agree, as the equivalence tester demands (docs/testing.md): each
// predicate on the fast paths and on the slow paths, and the interpreter's pick against a plain
// first-match scan of those answers.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "compiler/interpreter.h"
#include "compiler/plan.h"
#include "frontends/mountebank_json.h"
#include "runtime/http/message.h"
#include "runtime/http/request_builder.h"
#include "tests/fuzz/fuzz_input.h"

namespace {

using rift::ir::Json;

constexpr std::string_view kFixedPredicates = R"json([
  {"equals": {"body": "hello"}},
  {"contains": {"body": "NEEDLE"}, "caseSensitive": true},
  {"startsWith": {"body": "{"}, "except": "\\s+"},
  {"matches": {"body": "^[a-z]+\\d*$"}},
  {"equals": {"body": {"name": "rift", "tags": ["a", "b"]}}},
  {"deepEquals": {"body": {"id": 1, "ok": true}}},
  {"exists": {"body": {"user": {"id": true}}}},
  {"equals": {"body": "1"}, "jsonpath": {"selector": "$.id"}},
  {"startsWith": {"body": "a"}, "jsonpath": {"selector": "$..name"}},
  {"deepEquals": {"body": [1, 2]}, "jsonpath": {"selector": "$.items[*].n"}},
  {"matches": {"body": "^x"}, "jsonpath": {"selector": "$.items[?(@.n > 1)].name"}},
  {"exists": {"body": true}, "jsonpath": {"selector": "$.items.length"}},
  {"equals": {"body": "v"}, "xpath": {"selector": "//item"}},
  {"equals": {"body": "v"}, "xpath": {"selector": "//item[@id='2']"}},
  {"exists": {"body": true}, "xpath": {"selector": "//a:item", "ns": {"a": "urn:a"}}},
  {"equals": {"body": "3"}, "xpath": {"selector": "count(//item)"}},
  {"deepEquals": {"body": ["x", "y"]}, "xpath": {"selector": "//b:e/@v", "ns": {"b": "urn:b"}}},
  {"not": {"equals": {"body": ""}}},
  {"or": [{"endsWith": {"body": "}"}}, {"equals": {"form": {"a": "1"}}}]},
  {"and": [{"exists": {"query": {"q": true}}}, {"equals": {"headers": {"X-Kind": "json"}}}]},
  {"equals": {"method": "POST", "path": "/orders", "body": {"id": "7"}}},
  {"contains": {"body": {"items": [{"n": 1}]}}}
])json";

// One stub per predicate, so that every predicate is reached by the scan and the tree alike.
std::vector<rift::ir::Stub> stubs_from(std::string_view text) {
  const Json predicates = Json::parse(text, nullptr, false);
  std::vector<rift::ir::Stub> stubs;
  if (!predicates.is_array()) return stubs;
  for (const Json& predicate : predicates) {
    Json stub = {{"predicates", Json::array({predicate})},
                 {"responses", Json::array({{{"is", Json::object()}}})}};
    auto parsed = rift::frontends::parse_stub(stub, {.allow_injection = false});
    auto* ok = std::get_if<rift::ir::Stub>(&parsed);
    if (ok && ok->predicates.size() == 1) stubs.push_back(std::move(*ok));
  }
  return stubs;
}

rift::Request request_from(std::string_view head, std::string_view body) {
  rift::http::Message message;
  message.method = "POST";
  message.target = "/orders?q=1";
  message.remote_address = "127.0.0.1";
  bool first = true;
  while (!head.empty()) {
    const size_t end = std::min(head.find('\n'), head.size());
    const std::string_view line = head.substr(0, end);
    head.remove_prefix(std::min(end + 1, head.size()));
    if (first) {
      first = false;
      const size_t space = line.find(' ');
      if (space != std::string_view::npos) {
        message.method = line.substr(0, space);
        message.target = line.substr(space + 1);
        continue;
      }
    }
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const size_t value = line.find_first_not_of(' ', colon + 1);
    message.headers.emplace_back(line.substr(0, colon),
                                 value == std::string_view::npos ? "" : line.substr(value));
  }
  message.body = body;
  return rift::http::build_request(message);
}

// A predicate's or a matcher's answer: a stub index or true/false, or the 500's error.
struct Answer {
  int value = 0;
  std::string error;
  bool operator==(const Answer&) const = default;
};

std::vector<Answer> evaluate_each(const std::vector<rift::PreparedPredicate>& predicates,
                                  const rift::Request& request, bool slow_paths) {
  rift::RequestContext context(request);
  context.set_slow_paths(slow_paths);
  std::vector<Answer> answers;
  for (const auto& predicate : predicates) {
    try {
      answers.push_back({predicate.evaluate(context) ? 1 : 0, ""});
    } catch (const rift::EvalError& error) {
      answers.push_back({0, error.error().to_json().dump()});
    }
  }
  return answers;
}

Answer match(const rift::Matcher& matcher, const rift::Request& request, bool slow_paths) {
  rift::RequestContext context(request);
  context.set_slow_paths(slow_paths);
  try {
    return {matcher.match(context), ""};
  } catch (const rift::EvalError& error) {
    return {0, error.error().to_json().dump()};
  }
}

// Mountebank's order: the first stub whose predicate holds or throws decides.
Answer first_match(const std::vector<Answer>& answers) {
  for (size_t i = 0; i < answers.size(); ++i) {
    if (!answers[i].error.empty()) return answers[i];
    if (answers[i].value == 1) return {static_cast<int>(i), ""};
  }
  return {rift::kNoMatch, ""};
}

// The stubs, each predicate prepared on its own (for the scan) and the tree planned from them.
struct Program {
  std::vector<rift::PreparedPredicate> predicates;
  std::shared_ptr<const rift::Interpreter> interpreter;
};

// Null when a predicate cannot be prepared (the admin API would have refused the stub).
std::unique_ptr<Program> compile(const std::vector<rift::ir::Stub>& stubs) {
  auto program = std::make_unique<Program>();
  for (const auto& stub : stubs) {
    auto prepared = rift::PreparedPredicate::prepare(stub.predicates.front());
    if (!std::holds_alternative<rift::PreparedPredicate>(prepared)) return nullptr;
    program->predicates.push_back(std::get<rift::PreparedPredicate>(std::move(prepared)));
  }
  auto built = rift::plan::build(stubs);
  if (!std::holds_alternative<std::shared_ptr<const rift::plan::Tree>>(built)) {
    rift::fuzz::contract_broken("the planner refused predicates that prepare");
  }
  program->interpreter = std::make_shared<const rift::Interpreter>(
      std::get<std::shared_ptr<const rift::plan::Tree>>(std::move(built)));
  return program;
}

// Names the first predicate whose answers differ, for whoever replays the finding.
void report_difference(const Program& program, const std::vector<Answer>& fast,
                       const std::vector<Answer>& slow) {
  for (size_t i = 0; i < fast.size(); ++i) {
    if (fast[i] == slow[i]) continue;
    std::fprintf(stderr, "predicate %zu: %s\nfast paths: %d %s\nslow paths: %d %s\n", i,
                 rift::ir::Json(program.predicates[i].source().fields).dump().c_str(),
                 fast[i].value, fast[i].error.c_str(), slow[i].value, slow[i].error.c_str());
    return;
  }
}

void check(const Program& program, const rift::Request& request) {
  const auto fast = evaluate_each(program.predicates, request, false);
  const auto slow = evaluate_each(program.predicates, request, true);
  if (fast != slow) {
    report_difference(program, fast, slow);
    rift::fuzz::contract_broken("a predicate answers differently on its slow paths");
  }
  const Answer picked = match(*program.interpreter, request, false);
  if (picked != first_match(fast)) {
    rift::fuzz::contract_broken("the interpreter and a first-match scan pick differently");
  }
  if (picked != match(*program.interpreter, request, true)) {
    rift::fuzz::contract_broken("the interpreter picks differently on its slow paths");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Compiled once: most inputs only bring a body.
  static const std::unique_ptr<Program> kFixed = compile(stubs_from(kFixedPredicates));
  const auto parts = rift::fuzz::split_parts(rift::fuzz::as_text(data, size), 3);
  const rift::Request request = request_from(parts.size() == 3 ? parts[1] : "", parts.back());
  std::unique_ptr<Program> chosen;
  if (parts.size() > 1) {
    const auto stubs = stubs_from(rift::fuzz::valid_utf8(parts[0]));
    if (!stubs.empty()) {
      chosen = compile(stubs);
      if (!chosen) return 0;
    }
  }
  check(chosen ? *chosen : *kFixed, request);
  return 0;
}
