// One running imposter: its configuration, the plan snapshot it serves, its counters and journal.
//
// Threading: the admin API (one control thread, under the registry's lock) edits the
// configuration and publishes snapshots; worker threads only load the snapshot and touch the
// atomic counter, per-stub cycle positions and (when recording) the journal.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <variant>
#include <vector>

#include "codegen/tier_compiler.h"
#include "compiler/errors.h"
#include "compiler/ir.h"
#include "runtime/base/dice.h"
#include "runtime/base/sharded_counter.h"
#include "runtime/behaviors/services.h"
#include "runtime/events/event_bus.h"
#include "runtime/flow_state/flow_store.h"
#include "runtime/http/server.h"
#include "runtime/imposter/client_filter.h"
#include "runtime/imposter/metrics.h"
#include "runtime/imposter/plan_snapshot.h"
#include "runtime/imposter/request_journal.h"
#include "runtime/script/imposter_scripts.h"
#include "runtime/smtp/smtp_session.h"
#include "runtime/tiering/tiering.h"

namespace rift {

class Logger;
class Imposter;

struct ServingOptions {
  bool mock = false;       // record every imposter's requests
  bool debug = false;      // keep each stub's matches
  bool keep_alive = true;  // false under --mountebankFraming
  ClientFilter filter;
  MatcherFactory compiled;  // a frozen mock's compiled matchers; null: the interpreter
  // Compiles each published plan in the background (the JIT); null: no background tier.
  // Not owned: serve() keeps it alive until every imposter is gone.
  Tiering* tiering = nullptr;
  // Runs admin-side work on the control thread (proxy recordings edit the stubs there).
  // Null: proxies forward but record nothing.
  std::function<void(std::function<void()>)> post_to_control;
  // Shared by the behavior pipelines of every imposter; create() makes one when unset.
  std::shared_ptr<behaviors::Services> behaviors;
  // Called on the control thread after a proxy recording changed an imposter's stubs, like an
  // admin edit would be followed by saving it (--datadir). Null: nothing to do.
  std::function<void(const Imposter&)> stubs_recorded;
  // Where request-time problems are logged (an unknown fault type); null: nowhere.
  // Not owned: serve() keeps it alive until every imposter is gone.
  Logger* logger = nullptr;
  // Runs inject, decorate and wait functions (--allowInjection); null: they answer 500.
  // Not owned; imposters keep only its handle, which is safe after the engine stops.
  script::Engine* scripts = nullptr;
  // The admin event stream's bus: every recorded request is offered to it. Null: none.
  std::shared_ptr<events::EventBus> events;
  // --seed: what every imposter's dice start from unless its `_rift.seed` says otherwise.
  // Unset: a seed from the operating system per imposter.
  std::optional<uint64_t> seed;
  // The metrics port's series (docs/metrics.md) this imposter adds to. Null: not served.
  std::shared_ptr<metrics::RiftMetrics> metrics;
};

class Imposter : public std::enable_shared_from_this<Imposter>, public TierTarget {
 public:
  // Plans and publishes the first snapshot; fails if a predicate cannot be prepared.
  static std::variant<std::shared_ptr<Imposter>, MbError> create(ir::Imposter config,
                                                                 ServingOptions options);

  // The data plane: answer one request.
  void handle(http::Message&& message, http::Respond respond);
  // Whether the imposter answers HTTP (http, https): what the gateway and the front door may
  // hand it. A tcp or smtp imposter is reached only on its own port.
  bool speaks_http() const { return wire_ == WireContext::Wire::kHttp && !smtp_; }
  // An smtp imposter's data plane (docs/smtp.md): one accepted mail, counted, and journaled as
  // Mountebank's smtp request when the imposter records. Mountebank matches no stub for mail.
  void handle_mail(const smtp::SmtpMail& mail, const std::string& remote_address);
  // A tcp imposter's endOfRequestResolver on the bytes a connection gathered (docs/tcp.md):
  // whether they are a whole request. True without a resolver; false when it cannot run.
  bool ends_request(const std::string& gathered) const;

  // --- admin side: call only from the control thread ---
  const ir::Imposter& config() const { return *config_; }
  int port() const { return config_->port.value_or(0); }
  void set_port(int port);
  // Replaces the stub list. `keep[i]` names the old stub whose cycle position new stub i keeps,
  // or -1 for a fresh one. Publishes before returning, so the next request sees the change.
  std::optional<MbError> set_stubs(std::vector<ir::Stub> stubs, const std::vector<int>& keep);
  // Stub `index` as the admin API prints it (runtime/imposter/stub_text.h); null: render it afresh.
  const std::shared_ptr<const std::string>& cached_stub_text(size_t index) const {
    return stub_texts_[index];
  }

  // The store `_rift.flowState` asked for (docs/flow-state.md); null when the imposter has none.
  const std::shared_ptr<flow_state::FlowStore>& flow_store() const { return flow_store_; }

  // POST .../enable|disable (docs/stub-ids.md#enable-and-disable): a disabled imposter answers
  // every request 503 `imposter disabled`, neither counted nor recorded. Any thread may read it.
  bool enabled() const { return enabled_.load(std::memory_order_relaxed); }
  void set_enabled(bool enabled) { enabled_.store(enabled, std::memory_order_relaxed); }

  const ImposterMetrics& metrics() const { return metrics_; }
  uint64_t number_of_requests() const { return requests_.load(); }
  // The journal, or the part of it `keep` selects (unset: all of it).
  ir::Json recorded_requests(const JournalFilter& keep = {}) const;
  std::vector<RecordedRequest> recorded_copies(const JournalFilter& keep) const {
    return journal_.copies(keep);
  }
  // What runs this imposter's `inject` predicates (null without --allowInjection's engine).
  const PredicateInjector* predicate_injector() const { return scripts_.get(); }
  // savedRequests through the `since` cursor (docs/journal.md).
  JournalPage recorded_page(const JournalFilter& keep, std::optional<uint64_t> since) const {
    return journal_.read(keep, since);
  }
  size_t count_recorded_requests(const JournalFilter& keep) const;
  // Empties the journal and resets numberOfRequests, as Mountebank's DELETE savedRequests does.
  void clear_recorded_requests();
  // Removes the requests `which` selects; numberOfRequests stays (a space's teardown, a
  // filtered DELETE savedRequests).
  void remove_recorded_requests(const JournalFilter& which);
  // --debug: what stub `index` answered so far.
  ir::Json matches(size_t index) const;
  bool records() const { return config_->record_requests || options_.mock; }
  // The plan in service now (for GET /imposters/:id/plan and explain).
  std::shared_ptr<const PlanSnapshot> snapshot() const {
    return snapshot_.load(std::memory_order_acquire);
  }

  // From the tiering thread: serve `tier` in place of the interpreter, if the plan in service
  // is still `version`. False (and `tier` dropped) when an edit got there first.
  bool install_compiled(uint64_t version, CompiledTier tier, double compile_ms) override;
  std::optional<Plan> interpreted_plan() const override;
  std::string tier_label() const override { return "[http:" + std::to_string(port()) + "]"; }

  // Control thread: files a proxy's answer (`response`, under `predicates`) the way `mode` says,
  // relative to the stub that proxied it, if that stub is still there
  // (docs/mountebank-semantics.md §5.6).
  void record_proxy_response(const std::shared_ptr<StubState>& proxy_stub, const std::string& mode,
                             const ir::Json& predicates, const ir::Json& response);

  // Only create() constructs; the passkey lets it use make_shared.
  struct Passkey {};
  Imposter(Passkey, std::shared_ptr<const ir::Imposter> config, ServingOptions options);

 private:
  std::optional<MbError> publish(std::shared_ptr<const ir::Imposter> config,
                                 std::vector<std::shared_ptr<StubState>> states);
  // Keeps `replaced` until no worker holds it and returns the retired snapshots nobody holds
  // any more, for the publishing thread to free: a plan of hundreds of stubs then never falls
  // to a worker to free between two requests. Called with publish_mutex_ held.
  std::vector<std::shared_ptr<const PlanSnapshot>> retire(
      std::shared_ptr<const PlanSnapshot> replaced);
  void record_match(const PlanSnapshot& snapshot, int stub, const ir::Json& request,
                    const ir::Response& response);
  // Forwards to the proxy's origin and answers when it has (runtime/imposter/proxy_reply.cpp): an
  // http(s) origin, or for a tcp imposter a tcp:// one.
  void proxy(const http::Message& message, const Request& request, const ir::Response& response,
             std::shared_ptr<StubState> stub, std::chrono::milliseconds wait,
             std::shared_ptr<const behaviors::Pipeline> behaviors,
             const std::shared_ptr<const PlanSnapshot>& snapshot, const WireContext& context,
             http::Respond respond);
  // proxy()'s tcp half: `captured` gets Mountebank's capture, {"data", "_proxyResponseTime"}.
  template <typename Captured>
  void proxy_tcp_origin(const http::Message& message, const std::string& to,
                        const WireContext& context, std::chrono::steady_clock::time_point started,
                        Captured captured, http::Respond respond);
  // A `fault` response's socket action; an unknown fault is logged and gets the default reply.
  http::Reply fault_reply(const ir::Json& fault, const PlanSnapshot& snapshot,
                          const WireContext& context) const;
  // An `is` or `inject` response whose answer is computed per request: the injection resolved
  // through the script engine, then the behavior pipeline (runtime/behaviors) run on it. Replies
  // from whichever thread finishes last (a worker, the engine thread, a shell runner). `is`, when
  // given, is what the behaviors run on instead of the stub's response (its rendered templates).
  // `respond`, first observing mb_response_generation_duration_seconds from `matched` to the
  // answer, for answers that arrive later (a proxy's origin): Mountebank times those too.
  http::Respond timed(http::Respond respond, std::chrono::steady_clock::time_point matched);
  // `defaultForward` (docs/default-forward.md): a request no stub matched, forwarded.
  void forward_unmatched(const http::Message& message, const Request& request,
                         const std::shared_ptr<const PlanSnapshot>& snapshot, WireContext context,
                         http::Respond respond);
  // `X-Rift-Debug: true` (docs/debug.md): the match described instead of served.
  void answer_debug(const http::Message& message, const PlanSnapshot& snapshot,
                    http::Respond respond);
  // A `_rift.script` response (docs/scripts.md), answered from the engine thread.
  void answer_script(const PlanSnapshot& snapshot, const ir::Stub& stub,
                     const PreparedResponse& prepared, const http::Message& message,
                     const WireContext& context, http::Respond respond,
                     std::chrono::steady_clock::time_point matched);
  void answer_computed(std::shared_ptr<const PlanSnapshot> snapshot,
                       const PreparedResponse& prepared, std::optional<ir::Json> request_json,
                       const Request& request, const WireContext& context, http::Respond respond,
                       std::chrono::steady_clock::time_point matched,
                       std::optional<ir::Json> is = std::nullopt);
  // A templated `is` response rendered for the request (docs/templates.md); a piece that failed
  // is empty, logged, and described in `failure`.
  ir::Json render_templates(const templates::ResponseTemplate& templated, const ir::Json& is,
                            const ir::Stub& stub, const Request& request, std::string& failure);
  // The same for a body alone (the fast path, TemplatedWire).
  std::string render_body(const templates::Template& body, const ir::Stub& stub,
                          const Request& request, std::string& failure);
  // What a render reads; `params` holds the request's pathParams while it runs.
  templates::Context template_context(const ir::Stub& stub, const Request& request,
                                      ir::Json& params);
  void template_failed(const std::string& failure) const;  // logged, rendered empty
  // What the behavior steps of this imposter use; `scripts` keeps the imposter alive.
  behaviors::StepContext step_context(std::shared_ptr<const ir::Json> request);

  // Serializes publishing: admin edits (control thread) against compiled-tier swaps.
  std::mutex publish_mutex_;
  std::shared_ptr<const ir::Imposter> config_;
  std::vector<std::shared_ptr<StubState>> states_;
  // Parallel to config_->stubs; like every configuration edit, only the control thread touches it.
  std::vector<std::shared_ptr<const std::string>> stub_texts_;
  uint64_t version_ = 0;
  std::atomic<std::shared_ptr<const PlanSnapshot>> snapshot_;
  std::vector<std::shared_ptr<const PlanSnapshot>> retired_;  // replaced, maybe still in use
  const ServingOptions options_;
  Dice dice_;  // `_rift.fault` probabilities and latency ranges
  // What the imposter speaks: HTTP, or tcp's bare bytes (its protocol and mode never change).
  const WireContext::Wire wire_;
  const bool smtp_;
  // This imposter's `state` in the script engine; null without one.
  std::unique_ptr<script::ImposterScripts> scripts_;
  // Set once by create(), before any request: read from any thread without a lock.
  std::shared_ptr<flow_state::FlowStore> flow_store_;
  std::atomic<bool> enabled_{true};

  ShardedCounter requests_;  // numberOfRequests: reset by DELETE .../savedRequests
  ImposterMetrics metrics_;  // Prometheus counters: never reset
  RequestJournal journal_;
};

}  // namespace rift
