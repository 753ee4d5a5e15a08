// A tcp imposter's requests (docs/tcp.md) from hostile bytes: binary garbage, text that is not
// UTF-8, data that is not base64.
//
// Input: "predicates\n%%\ndata", or the data alone. The predicates are a JSON array, each the
// predicate of a stub of its own in a text-mode and in a binary-mode tcp imposter, validated and
// decoded as the admin API does; otherwise a fixed set on `data`. The data becomes a tcp request
// in both modes, as a connection hands it to the imposter (runtime/tcp/tcp_request.h). Each
// mode's tree (planned for tcp: `data` dispatched like a path) must pick what a first-match
// scan picks, on the fast and the slow paths, and the request's journal JSON must serialize.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "compiler/interpreter.h"
#include "compiler/plan.h"
#include "frontends/mountebank_json.h"
#include "runtime/http/message.h"
#include "runtime/tcp/tcp_request.h"
#include "tests/fuzz/fuzz_input.h"

namespace {

using rift::ir::Json;

constexpr std::string_view kFixedPredicates = R"json([
  {"equals": {"data": "hello\n"}},
  {"equals": {"data": "AQID"}, "caseSensitive": true},
  {"startsWith": {"data": "GET "}},
  {"startsWith": {"data": "AAE="}},
  {"contains": {"data": "NEEDLE"}},
  {"endsWith": {"data": "\r\n"}},
  {"deepEquals": {"data": "ping"}},
  {"exists": {"data": true}},
  {"equals": {"data": {"id": 1}}},
  {"not": {"contains": {"data": "x"}}},
  {"or": [{"equals": {"data": "a"}}, {"startsWith": {"data": "b"}}]},
  {"and": [{"startsWith": {"data": "c"}}, {"endsWith": {"data": "d"}}]},
  {"equals": {"path": "/x", "method": "GET"}},
  {"matches": {"data": "^[0-9]+$"}},
  {"equals": {"data": "1"}, "jsonpath": {"selector": "$.id"}}
])json";

// The stubs of one mode; a predicate its mode refuses (matches in binary mode) is left out.
std::vector<rift::ir::Stub> stubs_from(std::string_view text, bool binary) {
  const Json predicates = Json::parse(text, nullptr, false);
  std::vector<rift::ir::Stub> stubs;
  if (!predicates.is_array()) return stubs;
  rift::frontends::ParseOptions options;
  options.binary_data = binary;
  for (const Json& predicate : predicates) {
    Json stub = {{"predicates", Json::array({predicate})},
                 {"responses", Json::array({{{"is", {{"data", "ok"}}}}})}};
    auto parsed = rift::frontends::parse_stub(stub, options);
    auto* ok = std::get_if<rift::ir::Stub>(&parsed);
    if (ok && ok->predicates.size() == 1) stubs.push_back(std::move(*ok));
  }
  return stubs;
}

struct Program {
  std::vector<rift::PreparedPredicate> predicates;
  std::unique_ptr<const rift::Interpreter> interpreter;
};

std::unique_ptr<Program> compile(const std::vector<rift::ir::Stub>& stubs) {
  auto program = std::make_unique<Program>();
  for (const auto& stub : stubs) {
    auto prepared = rift::PreparedPredicate::prepare(stub.predicates.front());
    if (!std::holds_alternative<rift::PreparedPredicate>(prepared)) return nullptr;
    program->predicates.push_back(std::get<rift::PreparedPredicate>(std::move(prepared)));
  }
  auto built = rift::plan::build(stubs, rift::Protocol::kTcp);
  if (!std::holds_alternative<std::shared_ptr<const rift::plan::Tree>>(built)) {
    rift::fuzz::contract_broken("the planner refused tcp predicates that prepare");
  }
  program->interpreter = std::make_unique<const rift::Interpreter>(
      std::get<std::shared_ptr<const rift::plan::Tree>>(std::move(built)));
  return program;
}

// The first stub whose predicate holds, or -1 for one that throws first (no tcp predicate here
// can), or kNoMatch.
int first_match(const Program& program, const rift::Request& request, bool slow_paths) {
  rift::RequestContext context(request);
  context.set_slow_paths(slow_paths);
  for (size_t i = 0; i < program.predicates.size(); ++i) {
    try {
      if (program.predicates[i].evaluate(context)) return static_cast<int>(i);
    } catch (const rift::EvalError&) {
      return -1;
    }
  }
  return rift::kNoMatch;
}

int pick(const Program& program, const rift::Request& request, bool slow_paths) {
  rift::RequestContext context(request);
  context.set_slow_paths(slow_paths);
  try {
    return program.interpreter->match(context);
  } catch (const rift::EvalError&) {
    return -1;
  }
}

void check(const Program& program, std::string_view data, bool binary) {
  rift::http::Message message;
  message.body = data;
  message.remote_address = "::ffff:127.0.0.1";
  message.remote_port = 40000;
  rift::Request request;
  rift::tcp::build_tcp_request(message, binary, request);
  (void)rift::to_json(request).dump();  // throws, and so aborts, on text that is not UTF-8
  const int scanned = first_match(program, request, false);
  if (scanned != first_match(program, request, true)) {
    rift::fuzz::contract_broken("a tcp predicate answers differently on its slow paths");
  }
  if (pick(program, request, false) != scanned || pick(program, request, true) != scanned) {
    rift::fuzz::contract_broken("the tcp tree and a first-match scan pick differently");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::unique_ptr<Program> kText = compile(stubs_from(kFixedPredicates, false));
  static const std::unique_ptr<Program> kBinary = compile(stubs_from(kFixedPredicates, true));
  const auto parts = rift::fuzz::split_parts(rift::fuzz::as_text(data, size), 2);
  if (parts.size() == 2) {
    const auto text = compile(stubs_from(parts[0], false));
    const auto binary = compile(stubs_from(parts[0], true));
    if (text) check(*text, parts[1], false);
    if (binary) check(*binary, parts[1], true);
    return 0;
  }
  if (kText) check(*kText, parts.back(), false);
  if (kBinary) check(*kBinary, parts.back(), true);
  return 0;
}
