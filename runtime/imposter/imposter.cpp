#include "runtime/imposter/imposter.h"

#include <chrono>
#include <cstring>

#include "compiler/base64.h"
#include "compiler/js_value.h"
#include "compiler/route_pattern.h"
#include "compiler/text_encoding.h"
#include "frontends/flow_store_settings.h"
#include "frontends/rift_block.h"
#include "runtime/base/clock.h"
#include "runtime/base/logger.h"
#include "runtime/flow_state/counting_store.h"
#include "runtime/flow_state/error_body.h"
#include "runtime/flow_state/make_store.h"
#include "runtime/http/request_builder.h"
#include "runtime/imposter/behavior_reply.h"
#include "runtime/imposter/debug_report.h"
#include "runtime/imposter/flow_id.h"
#include "runtime/imposter/rift_fault.h"
#include "runtime/imposter/scenario_reader.h"
#include "runtime/imposter/script_reply.h"
#include "runtime/imposter/snapshot_builder.h"
#include "runtime/imposter/stub_text.h"
#include "runtime/imposter/tcp_wire.h"
#include "runtime/smtp/mail_request.h"
#include "runtime/tcp/tcp_request.h"

namespace rift {
namespace {

// The 32 bytes Mountebank writes for RANDOM_DATA_THEN_CLOSE.
constexpr std::string_view kRandomData = "Htijy%@tWXJ/hQ#[Q:7G@dH4\"gu[QaX&";

std::string_view header(const http::Message& message, std::string_view name) {
  const std::string* value = find_ignoring_case(message.headers, name);
  return value ? std::string_view(*value) : std::string_view();
}

WireContext wire_context(const http::Message& message, bool allow_cors, bool keep_alive,
                         WireContext::Wire wire) {
  WireContext context;
  context.wire = wire;
  if (wire != WireContext::Wire::kHttp) return context;  // bytes alone: nothing else applies
  context.imposter_marker = true;
  context.keep_alive_default = keep_alive;
  context.head = message.method == "HEAD";
  context.http10 = message.version_major == 1 && message.version_minor == 0;
  if (allow_cors && message.method == "OPTIONS") {
    // Preflight echo (docs/mountebank-semantics.md §5.5): only when all three request headers
    // are present.
    const auto headers = header(message, "access-control-request-headers");
    const auto method = header(message, "access-control-request-method");
    const auto origin = header(message, "origin");
    if (!headers.empty() && !method.empty() && !origin.empty()) {
      context.extra_headers = {{"Access-Control-Allow-Headers", std::string(headers)},
                               {"Access-Control-Allow-Methods", std::string(method)},
                               {"Access-Control-Allow-Origin", std::string(origin)}};
    }
  }
  return context;
}

bool is_common(const WireContext& context) {
  return !context.head && !context.http10 && context.extra_headers.empty();
}

http::Reply to_reply(const WireResponse& wire) {
  http::Reply reply;
  reply.bytes = wire.serialize(http_date_now());
  reply.close = wire.close;
  return reply;
}

// A response the plan rendered ahead of time, lent rather than copied: the snapshot that owns it
// is held until handle() returns, and the connection copies the pieces during the Respond call.
http::Reply lent_reply(const WireResponse& wire) {
  http::Reply reply;
  wire.lend_to(reply);
  return reply;
}

// `is` merged with `defaults`, rendered for this request (or the 500 saying why it cannot be).
http::Reply rendered_reply(const ir::Json& is, const std::optional<ir::Json>& defaults,
                           const WireContext& context) {
  auto wire = render_response(is, defaults, context);
  return to_reply(std::holds_alternative<WireResponse>(wire)
                      ? std::get<WireResponse>(wire)
                      : render_error(std::get<MbError>(wire), context));
}

// What answers when no stub matches: the imposter's defaultResponse (pre-rendered unless the
// request needs its own rendering).
http::Reply default_reply(const PlanSnapshot& snapshot, const WireContext& context) {
  if (is_common(context) && !snapshot.default_template) return lent_reply(snapshot.no_match);
  WireContext unmatched = context;
  for (auto& marker : no_match_markers(snapshot.config->default_response.has_value())) {
    unmatched.extra_headers.push_back(std::move(marker));
  }
  if (snapshot.default_template) {
    const ir::Json dated =
        snapshot.default_template->render(*snapshot.config->default_response, {}, nullptr);
    return rendered_reply(ir::Json::object(), dated, unmatched);
  }
  return rendered_reply(ir::Json::object(), snapshot.config->default_response, unmatched);
}

// What a disabled imposter answers, before it looks at the request (docs/stub-ids.md).
http::Reply disabled_reply(const http::Message& message, bool keep_alive, WireContext::Wire wire) {
  if (wire != WireContext::Wire::kHttp) {
    http::Reply reply;  // a tcp client has nothing to read a 503 from
    reply.reset = true;
    return reply;
  }
  const WireContext context = wire_context(message, false, keep_alive, wire);
  const ir::Json error = MbError{"imposter disabled", "Imposter is disabled"}.to_json();
  const ir::Json is = {
      {"statusCode", 503},
      {"headers", {{"Content-Type", "application/json"}, {"x-rift-imposter-disabled", "true"}}},
      {"body", ir::Json{{"errors", ir::Json::array({error})}}.dump(2)}};
  return rendered_reply(is, std::nullopt, context);
}

// The flow store's failure as the reference answers it (docs/flow-state.md): 503 or 500, its
// error document as compact JSON.
http::Reply store_error_reply(const flow_state::StoreError& error, const WireContext& context) {
  const ir::Json is = {{"statusCode", flow_state::error_status(error)},
                       {"headers", {{"Content-Type", "application/json"}}},
                       {"body", flow_state::error_body(error).dump()}};
  return rendered_reply(is, std::nullopt, context);
}

ir::Json response_config(const ir::Response& response) {
  if (response.kind == ir::ResponseKind::kScript) {
    return ir::Json{{"_rift", {{"script", response.value}}}};
  }
  static const char* kKinds[] = {"is", "proxy", "inject", "fault"};
  ir::Json out = ir::Json::object();
  out[kKinds[static_cast<int>(response.kind)]] = response.value;
  return out;
}

// The first `_rift.script` of `config` that does not compile, as the reference words it
// (docs/scripts.md): scripts are checked when they are created, not when they first run.
std::optional<MbError> script_syntax_error(const ir::Imposter& config,
                                           const script::ImposterScripts* scripts) {
  for (size_t i = 0; i < config.stubs.size(); ++i) {
    const ir::Stub& stub = config.stubs[i];
    for (size_t j = 0; j < stub.responses.size(); ++j) {
      const ir::Response& response = stub.responses[j];
      // A script next to Mountebank's response is not run, but it is checked all the same.
      const ir::Json* script = &response.value;
      if (response.kind != ir::ResponseKind::kScript) {
        const ir::Json::json_pointer at("/responses/" + std::to_string(j) + "/_rift/script");
        if (!stub.source.contains(at)) continue;
        script = &stub.source.at(at);
      }
      if (!script->is_object() || !script->value("code", ir::Json()).is_string()) continue;
      const std::string engine = script->value("engine", "javascript");
      const std::string where = "Invalid " + engine + " script in stub '" +
                                stub.id.value_or("stub[" + std::to_string(i) + "]") +
                                "' response " + std::to_string(j) + ": ";
      if (scripts == nullptr) {
        return bad_data("Script validation failed: " + where +
                        "scripts need --allowInjection (docs/scripts.md)");
      }
      if (auto error = scripts->syntax_error(script->value("code", ""))) {
        return bad_data("Script validation failed: " + where + *error);
      }
    }
  }
  return std::nullopt;
}

}  // namespace

Imposter::Imposter(Passkey, std::shared_ptr<const ir::Imposter> config, ServingOptions options)
    : config_(std::move(config)),
      options_(std::move(options)),
      dice_(frontends::rift_seed(config_->rift).value_or(options_.seed.value_or(Dice::unseeded()))),
      wire_(wire_of(*config_)),
      smtp_(config_->protocol == "smtp"),
      enabled_(config_->enabled) {
  if (options_.scripts) {
    scripts_ = std::make_unique<script::ImposterScripts>(
        options_.scripts->handle(),
        "[" + config_->protocol + ":" + std::to_string(config_->port.value_or(0)) + "]");
  }
}

namespace {

// The store the imposter's `_rift.flowState` names, connected. Without one, an in-memory store
// of the default lifetime: the reference gives such an imposter a store that forgets every
// write, so a flow-state PUT or a scenario added later silently did nothing
// (docs/rift-compatibility.md).
std::variant<std::shared_ptr<flow_state::FlowStore>, MbError> make_flow_store(
    const ir::Imposter& config) {
  ir::Json block = ir::Json::object();
  if (config.rift && config.rift->is_object()) {
    auto given = config.rift->find("flowState");
    if (given != config.rift->end() && given->is_object()) block = *given;
  }
  auto settings = frontends::parse_flow_store(block);
  if (auto* errors = std::get_if<MbErrors>(&settings)) return errors->front();
  return flow_state::make_store(std::get<frontends::FlowStoreSettings>(settings));
}

}  // namespace

std::variant<std::shared_ptr<Imposter>, MbError> Imposter::create(ir::Imposter config,
                                                                  ServingOptions options) {
  if (!options.behaviors) options.behaviors = std::make_shared<behaviors::Services>();
  auto store = make_flow_store(config);
  if (auto* error = std::get_if<MbError>(&store)) return *error;
  if (options.metrics) {
    auto& made = std::get<std::shared_ptr<flow_state::FlowStore>>(store);
    made = flow_state::counting_store(std::move(made), options.metrics->flow_ops);
  }
  auto shared_config = std::make_shared<const ir::Imposter>(std::move(config));
  auto imposter = std::make_shared<Imposter>(Passkey{}, shared_config, std::move(options));
  imposter->flow_store_ = std::move(std::get<std::shared_ptr<flow_state::FlowStore>>(store));
  std::vector<std::shared_ptr<StubState>> states(shared_config->stubs.size());
  for (auto& state : states) state = std::make_shared<StubState>();
  if (auto error = imposter->publish(shared_config, std::move(states))) return *error;
  for (const ir::Stub& stub : shared_config->stubs) {
    imposter->stub_texts_.push_back(stub_text(stub.source));
  }
  return imposter;
}

namespace {

// Everything but the stubs: a stub edit replaces them all, and copying hundreds of stubs only
// to overwrite them was a fifth of an edit's cost. The settings are ir::Imposter's base, copied
// whole; a field ir::Imposter had of its own besides the stubs would be lost here.
static_assert(sizeof(ir::Imposter) == sizeof(ir::ImposterSettings) + sizeof(std::vector<ir::Stub>),
              "ir::Imposter holds only its settings and its stubs");
ir::Imposter settings_of(const ir::Imposter& config) {
  ir::Imposter out;
  static_cast<ir::ImposterSettings&>(out) = config;
  return out;
}

}  // namespace

std::optional<MbError> Imposter::publish(std::shared_ptr<const ir::Imposter> config,
                                         std::vector<std::shared_ptr<StubState>> states) {
  if (auto error = script_syntax_error(*config, scripts_.get())) return error;
  auto snapshot = build_snapshot(config, states, version_ + 1, options_.keep_alive,
                                 options_.compiled, options_.metrics.get());
  if (auto* error = std::get_if<MbError>(&snapshot)) return *error;
  std::vector<std::shared_ptr<const PlanSnapshot>> unused;  // freed after the lock is released
  {
    std::lock_guard lock(publish_mutex_);
    ++version_;
    config_ = std::move(config);
    states_ = std::move(states);
    unused = retire(
        snapshot_.exchange(std::get<std::shared_ptr<const PlanSnapshot>>(std::move(snapshot)),
                           std::memory_order_acq_rel));
  }
  if (options_.tiering) options_.tiering->request(shared_from_this());
  return std::nullopt;
}

std::optional<TierTarget::Plan> Imposter::interpreted_plan() const {
  const auto plan = snapshot();
  if (std::strcmp(plan->matcher->tier(), "interpreter") != 0) return std::nullopt;
  return Plan{plan->version, plan->config, plan->tree};
}

bool Imposter::install_compiled(uint64_t version, CompiledTier tier, double compile_ms) {
  std::vector<std::shared_ptr<const PlanSnapshot>> unused;  // freed after the lock is released
  std::lock_guard lock(publish_mutex_);
  const auto current = snapshot_.load(std::memory_order_acquire);
  if (current->version != version) return false;
  snapshot_.store(with_matcher(*current, std::move(tier.matcher), compile_ms, tier.code_bytes),
                  std::memory_order_release);
  unused = retire(current);
  return true;
}

std::vector<std::shared_ptr<const PlanSnapshot>> Imposter::retire(
    std::shared_ptr<const PlanSnapshot> replaced) {
  if (replaced) retired_.push_back(std::move(replaced));
  // Unpublished, a snapshot gains no new holders: a count of one means only this list holds it.
  std::vector<std::shared_ptr<const PlanSnapshot>> unused;
  std::erase_if(retired_, [&](std::shared_ptr<const PlanSnapshot>& snapshot) {
    if (snapshot.use_count() != 1) return false;
    unused.push_back(std::move(snapshot));
    return true;
  });
  return unused;
}

void Imposter::set_port(int port) {
  auto config = std::make_shared<ir::Imposter>(*config_);
  config->port = port;
  publish(std::move(config), states_);
}

std::optional<MbError> Imposter::set_stubs(std::vector<ir::Stub> stubs,
                                           const std::vector<int>& keep) {
  std::vector<std::shared_ptr<StubState>> states(stubs.size());
  std::vector<std::shared_ptr<const std::string>> texts(stubs.size());
  for (size_t i = 0; i < stubs.size(); ++i) {
    const int old = i < keep.size() ? keep[i] : -1;
    const bool kept = old >= 0 && static_cast<size_t>(old) < states_.size();
    states[i] = kept ? states_[static_cast<size_t>(old)] : std::make_shared<StubState>();
    // A kept stub usually has the same JSON, but not always (removing proxy recordings
    // trims its responses): comparing is far cheaper than printing it again.
    const auto o = static_cast<size_t>(old);
    const bool same = kept && o < stub_texts_.size() && stubs[i].source == config_->stubs[o].source;
    texts[i] = same ? stub_texts_[o] : stub_text(stubs[i].source);
  }
  auto config = std::make_shared<ir::Imposter>(settings_of(*config_));
  config->stubs = std::move(stubs);
  if (auto error = publish(std::move(config), std::move(states))) return error;
  stub_texts_ = std::move(texts);
  return std::nullopt;
}

ir::Json Imposter::recorded_requests(const JournalFilter& keep) const {
  return journal_.to_json(keep);
}

size_t Imposter::count_recorded_requests(const JournalFilter& keep) const {
  return journal_.count(keep);
}

void Imposter::clear_recorded_requests() {
  journal_.clear();
  requests_.reset();
}

void Imposter::remove_recorded_requests(const JournalFilter& which) {
  journal_.remove(which);
}

ir::Json Imposter::matches(size_t index) const {
  if (index >= states_.size()) return ir::Json::array();
  StubState& state = *states_[index];
  std::lock_guard lock(state.matches_mutex);
  return ir::Json(state.matches);
}

void Imposter::record_match(const PlanSnapshot& snapshot, int stub, const ir::Json& request,
                            const ir::Response& response) {
  ir::Json match = ir::Json::object();
  match["timestamp"] = iso_timestamp_now();
  match["request"] = request;
  match["response"] = response.kind == ir::ResponseKind::kIs ? response.value : ir::Json::object();
  match["responseConfig"] = response_config(response);
  match["processingTime"] = 0;
  StubState& state = *snapshot.stubs[static_cast<size_t>(stub)].state;
  std::lock_guard lock(state.matches_mutex);
  state.matches.push_back(std::move(match));
}

http::Reply Imposter::fault_reply(const ir::Json& fault, const PlanSnapshot& snapshot,
                                  const WireContext& context) const {
  http::Reply reply;
  if (fault == "CONNECTION_RESET_BY_PEER") {
    reply.reset = true;  // nothing written; SO_LINGER 0 turns the close into an RST
    return reply;
  }
  if (fault == "RANDOM_DATA_THEN_CLOSE") {
    reply.bytes = kRandomData;
    reply.close = true;
    return reply;
  }
  if (options_.logger) {
    const ir::Imposter& config = *snapshot.config;
    const std::string scope = "[" + config.protocol + ":" +
                              std::to_string(config.port.value_or(0)) +
                              (config.name ? " " + *config.name : "") + "] ";
    options_.logger->error(scope + "Unexpected fault type [" + js::to_string(fault) +
                           "], expected either CONNECTION_RESET_BY_PEER or RANDOM_DATA_THEN_CLOSE");
  }
  return default_reply(snapshot, context);
}

namespace {

// rift_faults_injected_total and its companions (docs/metrics.md).
void count_faults(metrics::RuleMetrics& rule, const FaultRoll& roll) {
  if (roll.latency.count() > 0) rule.latency_fault(roll.latency.count());
  if (roll.tcp) {
    rule.tcp_fault();
  } else if (roll.error) {
    rule.error_fault(roll.error->status);
  }
}

// rift_script_execution_duration_ms and rift_script_errors_total: from the match to the outcome,
// so a script that waited for the engine shows it.
void count_script(metrics::RuleMetrics& rule, const script::Outcome& outcome,
                  std::chrono::steady_clock::time_point started) {
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  const auto* error = std::get_if<script::ScriptError>(&outcome);
  rule.script_ran(error ? metrics::RuleMetrics::ScriptResult::kError
                        : metrics::RuleMetrics::ScriptResult::kInject,
                  ms);
  if (error) {
    rule.script_failed(error->timed_out ? metrics::RuleMetrics::ScriptError::kTimeout
                                        : metrics::RuleMetrics::ScriptError::kRuntime);
  }
}

}  // namespace

void Imposter::handle(http::Message&& message, http::Respond respond) {
  if (!options_.filter.allows(message.remote_address)) {
    http::Reply reply;
    reply.reset = true;  // blocked: dropped unanswered, neither counted nor recorded
    metrics_.blocked.add();
    respond(std::move(reply));
    return;
  }
  if (!enabled()) {
    respond(disabled_reply(message, options_.keep_alive, wire_));
    return;
  }
  requests_.add();
  metrics_.requests.add();
  Request& request = message.request;
  if (wire_ == WireContext::Wire::kHttp) {
    http::build_request_into(message, request);
  } else {
    tcp::build_tcp_request(message, wire_ == WireContext::Wire::kTcpBinary, request);
  }

  // Load the plan before recording, so one request is planned and recorded against one config.
  const std::shared_ptr<const PlanSnapshot> snapshot = snapshot_.load(std::memory_order_acquire);
  assign_flow_id(snapshot->config->flow_id_source, snapshot->config->port.value_or(0), request);
  const bool records = snapshot->config->record_requests || options_.mock;
  std::optional<ir::Json> request_json;
  if (options_.debug) request_json = to_json(request);
  if (records) {
    const auto recorded = journal_.record(request);
    const auto& events = options_.events;
    if (events && events->listening()) {
      events->request(snapshot->config->port.value_or(0), request, recorded.index,
                      [&] { return RequestJournal::entry_json(request, recorded.at); });
    }
  }

  WireContext context =
      wire_context(message, snapshot->config->allow_cors, options_.keep_alive, wire_);
  // Counted and recorded, as in the reference; a CORS preflight stays one.
  if (asks_for_debug(message.headers) && context.extra_headers.empty()) {
    answer_debug(message, *snapshot, std::move(respond));
    return;
  }
  RequestContext matching(request);
  matching.set_injector(scripts_.get());
  std::optional<ScenarioReader> scenarios;
  if (snapshot->scenarios) {
    scenarios.emplace(*flow_store_, request.flow_id);
    matching.set_scenario_states(&*scenarios);
  }
  int stub = kNoMatch;
  const auto match_started = std::chrono::steady_clock::now();
  try {
    stub = snapshot->matcher->match(matching);
  } catch (const EvalError& error) {
    respond(to_reply(render_error(error.error(), context)));
    return;
  }
  if (scenarios) {
    // A gate that could not be read, or a transition that could not be written: the store's
    // error, never an answer chosen without it (docs/scenarios.md).
    auto failed = scenarios->error();
    if (!failed && stub != kNoMatch) failed = scenarios->advance(snapshot->config->stubs[stub]);
    if (failed) {
      respond(store_error_reply(*failed, context));
      return;
    }
  }
  const auto matched = std::chrono::steady_clock::now();
  metrics_.match_duration.observe(std::chrono::duration<double>(matched - match_started).count());
  if (options_.metrics) options_.metrics->matched(snapshot->tier);

  if (stub == kNoMatch || snapshot->stubs[static_cast<size_t>(stub)].responses.empty()) {
    metrics_.no_match.add();
    if (snapshot->config->default_forward) {
      forward_unmatched(message, request, snapshot, context, timed(std::move(respond), matched));
      return;
    }
    // Mountebank times the default response like any other it resolves.
    http::Reply reply = default_reply(*snapshot, context);
    metrics_.response_duration.observe(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - matched).count());
    respond(std::move(reply));
    return;
  }

  const PreparedResponse& prepared = snapshot->stubs[static_cast<size_t>(stub)].next();
  const ir::Response& response = *prepared.response;
  if (options_.debug) record_match(*snapshot, stub, *request_json, response);
  // The request behaviors and inject functions see: with a routePattern, its `pathParams` too,
  // so `copy` can take `from: {"pathParams": "id"}` (docs/route-patterns.md).
  const auto with_path_params = [&]() -> std::optional<ir::Json> {
    const std::optional<std::string>& pattern =
        snapshot->config->stubs[static_cast<size_t>(stub)].route_pattern;
    if (!pattern) return std::move(request_json);
    ir::Json json = request_json ? std::move(*request_json) : to_json(request);
    json["pathParams"] = route_params(*pattern, request.path);
    return json;
  };
  std::chrono::milliseconds latency{0};
  if (response.fault) {
    // `_rift.fault` (docs/faults.md#probabilistic-faults): latency delays whatever follows; a
    // tcp fault, else an error fault, answers instead of the response.
    const FaultRoll roll = roll_fault(*response.fault, dice_);
    if (prepared.rule) count_faults(*prepared.rule, roll);
    latency = roll.latency;
    if (roll.tcp || roll.error) {
      http::Reply reply =
          roll.tcp ? tcp_fault_reply(*roll.tcp)
                   : rendered_reply(error_fault_response(*roll.error), std::nullopt, context);
      reply.delay = latency;
      respond(std::move(reply));
      return;
    }
    if (latency.count() > 0) {
      for (auto& marker : latency_markers(latency)) context.extra_headers.push_back(marker);
      respond = [latency, respond = std::move(respond)](http::Reply reply) {
        reply.delay += latency;
        respond(std::move(reply));
      };
    }
  }
  const bool common = is_common(context);

  http::Reply reply;
  switch (response.kind) {
    case ir::ResponseKind::kIs:
      if (prepared.templated) {
        const ir::Stub& source = snapshot->config->stubs[static_cast<size_t>(stub)];
        std::string failure;
        if (common && prepared.templated_wire) {
          const std::string body =
              render_body(*prepared.templated->body_only(), source, request, failure);
          if (failure.empty() || !options_.debug) {
            reply = prepared.templated_wire->reply(body);
            reply.delay = prepared.wait;
            break;
          }
        }
        ir::Json rendered = failure.empty() ? render_templates(*prepared.templated, response.value,
                                                               source, request, failure)
                                            : ir::Json();
        if (!failure.empty() && options_.debug) {
          // --debug: a template that fails says so instead of serving what it could render.
          context.extra_headers.emplace_back("x-rift-template-error", "true");
          reply = to_reply(render_error(
              MbError{"internal error", "template rendering failed: " + failure}, context));
          break;
        }
        if (prepared.behaviors) {
          answer_computed(snapshot, prepared, with_path_params(), request, context,
                          std::move(respond), matched, std::move(rendered));
          return;
        }
        reply = rendered_reply(rendered, snapshot->config->default_response, context);
      } else if (prepared.render_error) {
        reply = to_reply(render_error(*prepared.render_error, context));
      } else if (prepared.behaviors) {
        answer_computed(snapshot, prepared, with_path_params(), request, context,
                        std::move(respond), matched);
        return;
      } else if (common) {
        reply = lent_reply(*prepared.wire);
      } else {
        reply = rendered_reply(response.value, snapshot->config->default_response, context);
      }
      reply.delay = prepared.wait;
      break;
    case ir::ResponseKind::kFault:
      // Done at the socket (docs/mountebank-semantics.md §5.8); no behaviors run, the request was
      // counted and recorded.
      reply = fault_reply(response.value, *snapshot, context);
      break;
    case ir::ResponseKind::kProxy:
      // The proxy runs its own behaviors on the origin's answer (runtime/imposter/proxy_reply.cpp).
      proxy(message, request, response, snapshot->stubs[static_cast<size_t>(stub)].state,
            prepared.wait, prepared.behaviors, snapshot, context,
            timed(std::move(respond), matched));
      return;
    case ir::ResponseKind::kInject:
      context.extra_headers.emplace_back("x-rift-inject", "true");  // the reference's marker
      answer_computed(snapshot, prepared, with_path_params(), request, context, std::move(respond),
                      matched);
      return;
    case ir::ResponseKind::kScript:
      answer_script(*snapshot, snapshot->config->stubs[static_cast<size_t>(stub)], prepared,
                    message, context, std::move(respond), matched);
      return;
  }
  const auto generated = std::chrono::steady_clock::now() + reply.delay;
  metrics_.response_duration.observe(std::chrono::duration<double>(generated - matched).count());
  respond(std::move(reply));
}

void Imposter::handle_mail(const smtp::SmtpMail& mail, const std::string& remote_address) {
  if (!options_.filter.allows(remote_address)) {
    metrics_.blocked.add();
    return;
  }
  requests_.add();
  metrics_.requests.add();
  const auto started = std::chrono::steady_clock::now();
  const std::shared_ptr<const PlanSnapshot> snapshot = snapshot_.load(std::memory_order_acquire);
  if (snapshot->config->record_requests || options_.mock) {
    Request request;
    request.protocol = Protocol::kSmtp;
    request.request_from = remote_address;
    request.ip = remote_address;
    request.body = smtp::mail_request(mail, remote_address).dump();
    const auto recorded = journal_.record(request);
    const auto& events = options_.events;
    if (events && events->listening()) {
      events->request(snapshot->config->port.value_or(0), request, recorded.index,
                      [&] { return RequestJournal::entry_json(request, recorded.at); });
    }
  }
  // Mountebank resolves a mail as a request no stub answers, and times it like one.
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  metrics_.match_duration.observe(elapsed());
  metrics_.no_match.add();
  metrics_.response_duration.observe(elapsed());
}

bool Imposter::ends_request(const std::string& gathered) const {
  const std::shared_ptr<const PlanSnapshot> snapshot = snapshot_.load(std::memory_order_acquire);
  const auto& resolver = snapshot->config->end_of_request_resolver;
  if (!resolver) return true;
  if (!scripts_ || !resolver->is_object() || !resolver->contains("inject")) return true;
  const bool binary = wire_ == WireContext::Wire::kTcpBinary;
  return scripts_->ends_request(js::to_string((*resolver)["inject"]),
                                binary ? base64_encode(gathered) : to_valid_utf8(gathered), binary);
}

templates::Context Imposter::template_context(const ir::Stub& stub, const Request& request,
                                              ir::Json& params) {
  if (stub.route_pattern) params = route_params(*stub.route_pattern, request.path);
  templates::Context context;
  context.request = &request;
  context.path_params = &params;
  context.random = [this] { return dice_.next(); };
  context.state = [this, &request](std::string_view key) -> std::optional<ir::Json> {
    auto value = flow_store_->get(request.flow_id, key);
    if (auto* error = std::get_if<flow_state::StoreError>(&value)) {
      throw std::runtime_error(error->detail);
    }
    return std::get<std::optional<ir::Json>>(std::move(value));
  };
  return context;
}

void Imposter::template_failed(const std::string& failure) const {
  if (failure.empty() || !options_.logger) return;
  options_.logger->warn("[" + config_->protocol + ":" + std::to_string(port()) +
                        "] template failed, rendered empty: " + failure);
}

ir::Json Imposter::render_templates(const templates::ResponseTemplate& templated,
                                    const ir::Json& is, const ir::Stub& stub,
                                    const Request& request, std::string& failure) {
  ir::Json params;
  ir::Json rendered = templated.render(is, template_context(stub, request, params), &failure);
  template_failed(failure);
  return rendered;
}

std::string Imposter::render_body(const templates::Template& body, const ir::Stub& stub,
                                  const Request& request, std::string& failure) {
  ir::Json params;
  std::string rendered = body.render(template_context(stub, request, params), &failure);
  template_failed(failure);
  return rendered;
}

void Imposter::answer_debug(const http::Message& message, const PlanSnapshot& snapshot,
                            http::Respond respond) {
  const Request& request = message.request;
  WireContext context =
      wire_context(message, snapshot.config->allow_cors, options_.keep_alive, wire_);
  // Matched as any request (predicate injections run, scenario gates read), but nothing is
  // advanced, run or answered.
  RequestContext matching(request);
  matching.set_injector(scripts_.get());
  ScenarioReader scenarios(*flow_store_, request.flow_id);
  if (snapshot.scenarios) matching.set_scenario_states(&scenarios);
  int stub = kNoMatch;
  try {
    stub = snapshot.matcher->match(matching);
  } catch (const EvalError& error) {
    respond(to_reply(render_error(error.error(), context)));
    return;
  }
  const ir::Json report = debug_report(snapshot, message, request, stub, &scenarios);
  const ir::Json is = {
      {"statusCode", 200},
      {"headers", {{"Content-Type", "application/json"}, {"X-Rift-Debug-Response", "true"}}},
      {"body", report.dump(2)}};
  context.imposter_marker = false;  // a description of the imposter, not its answer
  respond(rendered_reply(is, std::nullopt, context));
}

http::Respond Imposter::timed(http::Respond respond,
                              std::chrono::steady_clock::time_point matched) {
  return [self = shared_from_this(), matched, respond = std::move(respond)](http::Reply reply) {
    const auto generated = std::chrono::steady_clock::now() + reply.delay;
    self->metrics_.response_duration.observe(
        std::chrono::duration<double>(generated - matched).count());
    respond(std::move(reply));
  };
}

void Imposter::forward_unmatched(const http::Message& message, const Request& request,
                                 const std::shared_ptr<const PlanSnapshot>& snapshot,
                                 WireContext context, http::Respond respond) {
  // A transparent proxy to the origin: nothing recorded, marked as the reference marks it.
  ir::Response forward;
  forward.kind = ir::ResponseKind::kProxy;
  forward.value = {{"to", *snapshot->config->default_forward}, {"mode", "proxyTransparent"}};
  context.extra_headers.emplace_back("x-rift-default-forward", "true");
  proxy(message, request, forward, nullptr, std::chrono::milliseconds(0), nullptr, snapshot,
        context, std::move(respond));
}

behaviors::StepContext Imposter::step_context(std::shared_ptr<const ir::Json> request) {
  behaviors::StepContext steps;
  steps.request = std::move(request);
  steps.services = options_.behaviors;
  if (scripts_) {
    // Shares ownership of this imposter: a decorate may finish after the imposter was deleted.
    steps.scripts =
        std::shared_ptr<const script::ImposterScripts>(shared_from_this(), scripts_.get());
  }
  return steps;
}

void Imposter::answer_computed(std::shared_ptr<const PlanSnapshot> snapshot,
                               const PreparedResponse& prepared,
                               std::optional<ir::Json> request_json, const Request& request,
                               const WireContext& context, http::Respond respond,
                               std::chrono::steady_clock::time_point matched,
                               std::optional<ir::Json> is) {
  auto shared_request =
      std::make_shared<const ir::Json>(request_json ? std::move(*request_json) : to_json(request));
  // The snapshot owns `prepared`; the callbacks hold it (and this imposter) until they have run.
  auto finish = [self = shared_from_this(), snapshot, prepared = &prepared, shared_request, context,
                 matched, respond = std::move(respond)](script::Result<ir::Json> resolved) mutable {
    auto deliver = [self, matched, respond = std::move(respond)](http::Reply reply) {
      const auto generated = std::chrono::steady_clock::now() + reply.delay;
      self->metrics_.response_duration.observe(
          std::chrono::duration<double>(generated - matched).count());
      respond(std::move(reply));
    };
    const std::optional<ir::Json>& defaults = snapshot->config->default_response;
    if (auto* error = std::get_if<MbError>(&resolved)) {
      return deliver(behaviors::render_outcome(std::move(*error), defaults, context));
    }
    ir::Json& response = std::get<ir::Json>(resolved);
    if (!prepared->behaviors) {
      return deliver(behaviors::render_outcome(behaviors::Flow{std::move(response), prepared->wait},
                                               defaults, context));
    }
    behaviors::reply_with_behaviors(prepared->behaviors, self->step_context(shared_request),
                                    std::move(response), defaults, context, std::move(deliver));
  };
  const ir::Response& response = *prepared.response;
  if (response.kind != ir::ResponseKind::kInject)
    return finish(is ? std::move(*is) : response.value);
  if (!scripts_) {
    return finish(MbError{"invalid injection",
                          "JavaScript injection is not allowed unless mb is run with the "
                          "--allowInjection flag",
                          std::nullopt});
  }
  const std::string source = js::to_string(response.value);  // `(${fn})(config, ...)`
  scripts_->respond(source, *shared_request, std::move(finish));
}

void Imposter::answer_script(const PlanSnapshot& snapshot, const ir::Stub& stub,
                             const PreparedResponse& prepared, const http::Message& message,
                             const WireContext& context, http::Respond respond,
                             std::chrono::steady_clock::time_point matched) {
  const ir::Response& response = *prepared.response;
  const std::string engine = response.value.value("engine", "javascript");
  if (!scripts_) {  // the gate refused it when it was created; a frozen mock has no engine
    respond(rendered_reply(
        script_answer(script::ScriptError{"scripts need --allowInjection"}, engine).is,
        std::nullopt, context));
    return;
  }
  script::ScriptRun run;
  run.code = response.value.value("code", "");
  run.ctx = script_ctx(message.request, message.target, message.body, stub);
  run.state = script_state_bridge(flow_store_);
  run.time_limit = script_time_limit(*snapshot.config);
  scripts_->script(std::move(run),
                   [self = shared_from_this(), engine, context, matched, rule = prepared.rule,
                    respond = std::move(respond)](script::Outcome outcome) {
                     if (rule) count_script(*rule, outcome, matched);
                     const ScriptAnswer answer = script_answer(outcome, engine);
                     http::Reply reply;
                     if (answer.reset) {
                       reply.reset = true;
                     } else {
                       reply = rendered_reply(answer.is, std::nullopt, context);
                       reply.delay = answer.delay;
                     }
                     const auto generated = std::chrono::steady_clock::now() + reply.delay;
                     self->metrics_.response_duration.observe(
                         std::chrono::duration<double>(generated - matched).count());
                     respond(std::move(reply));
                   });
}

}  // namespace rift
