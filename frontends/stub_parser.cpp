// parse_stub: the per-stub half of Mountebank's dryRunValidator
// (docs/mountebank-semantics.md §2.3).
#include <optional>

#include "compiler/js_value.h"
#include "compiler/validate.h"
#include "frontends/behavior_validator.h"
#include "frontends/binary_data.h"
#include "frontends/injection_gate.h"
#include "frontends/lenient_forms.h"
#include "frontends/mountebank_json.h"
#include "frontends/predicate_parser.h"
#include "frontends/response_parser.h"
#include "frontends/rift_block.h"
#include "frontends/upcast.h"

namespace rift::frontends {
namespace {

bool has_responses(const ir::Json& stub) {
  if (!stub.is_object()) return false;
  auto it = stub.find("responses");
  return it != stub.end() && it->is_array() && !it->empty();
}

// Shape checks that need no dry run: behaviors and repeat of every response.
MbErrors static_errors(const ir::Json& stub, const ParseOptions& options) {
  MbErrors errors;
  if (!options.allow_injection) errors = injection_errors(stub);
  for (const auto& response : stub.at("responses")) {
    if (!response.is_object()) continue;
    if (auto it = response.find("behaviors"); it != response.end()) {
      for (auto& error : validate_behaviors(*it, response)) errors.push_back(std::move(error));
    }
    for (auto& error : repeat_errors(response)) errors.push_back(std::move(error));
  }
  return errors;
}

// The first predicate the dry run would trip over: a parse failure, unless a predicate before
// it fails the compiler's checks (Mountebank evaluates predicates in order).
std::optional<MbError> parse_predicates(const ir::Json& stub, ir::Stub& out,
                                        PredicateValidator& validator) {
  auto it = stub.find("predicates");
  if (it == stub.end() || !js::truthy(*it)) return std::nullopt;
  if (!it->is_array()) return bad_data("\"predicates\" field must be an array");
  for (const auto& predicate : *it) {
    auto parsed = parse_predicate(predicate);
    if (auto* error = std::get_if<MbError>(&parsed)) {
      const MbErrors earlier = validator.validate(out.predicates);
      return earlier.empty() ? *error : earlier.front();
    }
    out.predicates.push_back(std::get<ir::Predicate>(std::move(parsed)));
  }
  const MbErrors compiled = validator.validate(out.predicates);
  if (!compiled.empty()) return compiled.front();
  return std::nullopt;
}

std::optional<MbError> dry_run(const ir::Json& stub, ir::Stub& out, PredicateValidator& validator,
                               const ir::Json* scripts) {
  if (auto error = parse_predicates(stub, out, validator)) return error;
  for (const auto& response : stub.at("responses")) {
    auto parsed = parse_response(response, scripts);
    if (auto* error = std::get_if<MbError>(&parsed)) return *error;
    out.responses.push_back(std::get<ir::Response>(std::move(parsed)));
  }
  return std::nullopt;
}

}  // namespace

std::variant<ir::Stub, MbErrors> parse_stub(const ir::Json& stub, const ParseOptions& options) {
  PredicateValidator validator;
  return parse_stub(stub, options, validator);
}

std::variant<ir::Stub, MbErrors> parse_stub(ir::Json raw_stub, const ParseOptions& options,
                                            PredicateValidator& validator) {
  // The upcast stub is the stub's source; everything below reads it there (no second copy).
  ir::Stub out;
  auto lenient = lenient_stub(std::move(raw_stub));
  if (auto* error = std::get_if<MbError>(&lenient)) return MbErrors{*error};
  out.source = upcast_stub(std::get<ir::Json>(std::move(lenient)));
  const ir::Json& stub = out.source;
  if (!has_responses(stub)) {
    return MbErrors{bad_data("'responses' must be a non-empty array", stub)};
  }
  if (MbErrors errors = static_errors(stub, options); !errors.empty()) return errors;
  auto space = parse_space(stub);
  if (auto* error = std::get_if<MbError>(&space)) return MbErrors{*error};
  out.space = std::get<std::optional<std::string>>(std::move(space));

  if (auto error = dry_run(stub, out, validator, options.scripts)) {
    // Mountebank's dry run labels errors that carry no source with the serialized stub.
    if (!error->source || !js::truthy(*error->source)) error->source = stub.dump();
    return MbErrors{*error};
  }
  if (options.binary_data) {
    if (auto error = binary_mode_error(out.predicates)) {
      error->source = stub.dump();
      return MbErrors{*error};
    }
    decode_binary_data(out.predicates);
  }
  if (auto error = parse_scenario(stub, out)) return MbErrors{*error};
  if (auto error = parse_stub_id(stub, out)) return MbErrors{*error};
  if (auto error = parse_route_pattern(stub, out)) return MbErrors{*error};
  return out;
}

}  // namespace rift::frontends
