#include "runtime/script/imposter_scripts.h"

#include <cmath>

#include "compiler/predicate_eval.h"

namespace rift::script {
namespace {

MbError injection_error(const char* what, const std::string& source, const ScriptError& error) {
  return MbError{"invalid injection", std::string("invalid ") + what + " injection", source,
                 error.message};
}

}  // namespace

ImposterScripts::ImposterScripts(EngineHandle engine, const std::string& label)
    : engine_(std::move(engine)), id_(engine_.open_imposter(label)) {}

ImposterScripts::~ImposterScripts() {
  engine_.close_imposter(id_);
}

bool ImposterScripts::holds(const std::string& source, const ir::Json& request) const {
  Outcome outcome = engine_.call_and_wait(CallKind::kPredicate, id_, source, request);
  if (auto* error = std::get_if<ScriptError>(&outcome)) {
    throw EvalError(injection_error("predicate", source, *error));
  }
  const ir::Json& value = std::get<ir::Json>(outcome);
  return value.is_boolean() && value.get<bool>();
}

bool ImposterScripts::ends_request(const std::string& source, const std::string& data,
                                   bool binary) const {
  ir::Json request = {{"data", data}, {"binary", binary}};
  Outcome outcome = engine_.call_and_wait(CallKind::kEndOfRequest, id_, source, std::move(request));
  const ir::Json* value = std::get_if<ir::Json>(&outcome);
  return value && value->is_boolean() && value->get<bool>();
}

void ImposterScripts::respond(const std::string& source, const ir::Json& request,
                              Then<ir::Json> then) const {
  engine_.call(CallKind::kResponse, id_, source, request, ir::Json(),
               [source, then = std::move(then)](Outcome outcome) {
                 if (auto* error = std::get_if<ScriptError>(&outcome)) {
                   then(injection_error("response", source, *error));
                   return;
                 }
                 ir::Json& value = std::get<ir::Json>(outcome);
                 then(value.is_object() ? std::move(value) : ir::Json::object());
               });
}

void ImposterScripts::decorate(const std::string& source, const ir::Json& request,
                               const ir::Json& response, Then<ir::Json> then) const {
  engine_.call(CallKind::kDecorate, id_, source, request, response,
               [source, then = std::move(then)](Outcome outcome) {
                 if (auto* error = std::get_if<ScriptError>(&outcome)) {
                   then(injection_error("decorator", source, *error));
                   return;
                 }
                 ir::Json& value = std::get<ir::Json>(outcome);
                 then(value.is_object() ? std::move(value) : ir::Json::object());
               });
}

void ImposterScripts::wait(const std::string& source, Then<std::chrono::milliseconds> then) const {
  engine_.call(
      CallKind::kWait, id_, source, ir::Json::object(), ir::Json(),
      [source, then = std::move(then)](Outcome outcome) {
        if (auto* error = std::get_if<ScriptError>(&outcome)) {
          then(injection_error("wait", source, *error));
          return;
        }
        // setTimeout's reading of the result: anything but a positive number is 0.
        const ir::Json& value = std::get<ir::Json>(outcome);
        const double ms = value.is_number() ? value.get<double>() : 0;
        then(std::chrono::milliseconds(std::isfinite(ms) && ms > 0 ? static_cast<int64_t>(ms) : 0));
      });
}

void ImposterScripts::generate(const std::string& source, const ir::Json& request,
                               Then<ir::Json> then) const {
  engine_.call(CallKind::kGenerator, id_, source, request, ir::Json(),
               [source, then = std::move(then)](Outcome outcome) {
                 if (auto* error = std::get_if<ScriptError>(&outcome)) {
                   // Mountebank reports the expression it evaluated.
                   then(injection_error("predicateGenerator", "(" + source + ")(config);", *error));
                   return;
                 }
                 ir::Json& value = std::get<ir::Json>(outcome);
                 then(value.is_array() ? std::move(value) : ir::Json::array());
               });
}

void ImposterScripts::script(ScriptRun run, Done done) const {
  run.imposter = id_;
  engine_.run_script(std::move(run), std::move(done));
}

}  // namespace rift::script
