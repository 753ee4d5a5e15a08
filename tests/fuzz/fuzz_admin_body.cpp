// An admin request body, taken the way the admin API takes it (runtime/admin/admin_api.cpp):
// decoded as UTF-8, parsed as JSON under the nesting bound; then read as each route that takes
// a body reads it (POST and PUT /imposters in imposters.cpp, the stub routes in stubs.cpp, PUT
// /front-door/routes),
// validated by the frontends, planned, and shown as GET /imposters/:id/plan shows the plan.
// runtime/admin itself is not linked: it needs the whole server, and these are the calls it
// makes into the stages below it.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "compiler/analysis.h"
#include "compiler/interpreter.h"
#include "compiler/json_stream.h"
#include "compiler/nesting.h"
#include "compiler/plan.h"
#include "compiler/plan_render.h"
#include "compiler/text_encoding.h"
#include "frontends/mountebank_json.h"
#include "frontends/route_table.h"
#include "tests/fuzz/fuzz_input.h"

namespace {

using rift::MbErrors;
using rift::ir::Json;

// What the admin API answers with a refusal: the error JSON, written out.
void answer_errors(const MbErrors& errors) {
  Json body = Json::array();
  for (const auto& error : errors) body.push_back(error.to_json());
  (void)body.dump();
}

// What publishing a stub list does: plan it, show the plan, and match the first request.
void publish(const std::vector<rift::ir::Stub>& stubs) {
  auto built = rift::plan::build(stubs);
  if (const auto* error = std::get_if<rift::MbError>(&built)) return answer_errors({*error});
  const auto tree = std::get<std::shared_ptr<const rift::plan::Tree>>(std::move(built));
  (void)rift::plan_to_json(*tree, stubs, rift::analysis::analyze(stubs)).dump();
  rift::Request request;
  request.method = "GET";
  request.path = "/";
  rift::RequestContext context(request);
  try {
    (void)rift::Interpreter(tree).match(context);
  } catch (const rift::EvalError& error) {
    answer_errors({error.error()});
  }
}

void create_imposter(std::variant<rift::ir::Imposter, MbErrors> parsed) {
  if (const auto* errors = std::get_if<MbErrors>(&parsed)) return answer_errors(*errors);
  publish(std::get<rift::ir::Imposter>(parsed).stubs);
}

// The stub routes parse each stub on its own and report every error of every stub.
void replace_stubs(const Json& stubs, const rift::frontends::ParseOptions& options) {
  std::vector<rift::ir::Stub> parsed;
  MbErrors errors;
  for (const auto& stub : stubs) {
    auto result = rift::frontends::parse_stub(stub, options);
    if (auto* found = std::get_if<MbErrors>(&result)) {
      errors.insert(errors.end(), found->begin(), found->end());
    } else {
      parsed.push_back(std::get<rift::ir::Stub>(std::move(result)));
    }
  }
  if (!errors.empty()) return answer_errors(errors);
  publish(parsed);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = rift::to_valid_utf8(rift::fuzz::as_text(data, size));
  Json body = rift::json_stream::parse_nlohmann(text);
  if (body.is_discarded()) {
    (void)rift::nesting::json_exceeds(text);  // picks the 400's message
    return 0;
  }
  if (!body.is_object()) body = Json::object();
  // Mountebank refuses inject only when --allowInjection is off: both settings are served.
  const rift::frontends::ParseOptions injection{.allow_injection = true};
  const rift::frontends::ParseOptions no_injection{.allow_injection = false};

  // PUT /imposters: every document, each read as an object.
  if (const auto imposters = body.find("imposters");
      imposters != body.end() && imposters->is_array()) {
    for (const auto& document : *imposters) {
      create_imposter(rift::frontends::parse_imposter(
          document.is_object() ? document : Json::object(), no_injection));
    }
  }
  // PUT /imposters/:id/stubs, POST /imposters/:id/stubs, PUT /imposters/:id/stubs/:i.
  if (const auto stubs = body.find("stubs"); stubs != body.end() && stubs->is_array()) {
    replace_stubs(*stubs, no_injection);
  }
  if (const auto stub = body.find("stub"); stub != body.end()) {
    replace_stubs(Json::array({*stub}), no_injection);
  }
  // PUT /front-door/routes: the table read, validated, ordered and planned as the front door does.
  if (body.contains("routes")) {
    auto table = rift::frontends::parse_route_table(body);
    if (auto* routes = std::get_if<rift::frontends::RouteTable>(&table)) publish(routes->stubs);
  }
  replace_stubs(Json::array({body}), injection);
  // POST /imposters last: it moves the stubs out of the body.
  create_imposter(rift::frontends::parse_imposter_moving_stubs(body, injection));
  return 0;
}
