// Mountebank's admin API (docs/mountebank-semantics.md §1) on --port: imposters, stubs, journal,
// config, logs.
//
// Runs on the server's control thread, one request at a time, so edits are serialised without
// locks and a call returns only once its new plan is published. The endpoints are the rows of
// runtime/admin/routes.cpp; this class is what stands in front of them: the API key, the body
// as JSON, --origin's CORS, and HTTP framing for the listener.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "runtime/admin/call.h"
#include "runtime/admin/state.h"
#include "runtime/base/logger.h"
#include "runtime/http/server.h"
#include "runtime/imposter/registry.h"
#include "runtime/options/options.h"

namespace rift {

class DatadirSync;
class Tiering;

class AdminApi {
 public:
  // `tiering`, when the JIT runs, adds its series to GET /metrics.
  // `events`, when given, serves GET /events (and is what imposters publish to).
  AdminApi(Registry& registry, const Options& options, Logger& logger,
           const Tiering* tiering = nullptr, std::shared_ptr<events::EventBus> events = nullptr);

  // The HTTP listener's entry: frames call()'s answer as an HTTP/1.1 response.
  void handle(http::Message&& message, http::Respond respond);
  // Any caller's entry (the listener, an in-process embedding): the same status and body for
  // the same method, target and body.
  AdminReply call(const AdminRequest& request);

  // PUT /imposters semantics, also used to load --configfile at start-up.
  // Returns the error JSON body on failure.
  std::optional<ir::Json> replace_all(const ir::Json& imposters);

  // --datadir: from now on every change is saved through `datadir` before it is acknowledged.
  void persist_to(DatadirSync* datadir) { state_.datadir = datadir; }
  // The front door whose routes GET/PUT /front-door/routes read and replace.
  void route_with(front_door::FrontDoor* front_door) { state_.front_door = front_door; }
  // Where POST /intercept keeps the proxy it starts (the process may have started one already).
  void intercept_in(std::unique_ptr<intercept::Intercept>* slot) { state_.intercept = slot; }
  // Creates an imposter saved in the datadir (validated as a POST is; not saved again).
  // Returns the error JSON body on failure.
  std::optional<ir::Json> restore(const ir::Json& document);

 private:
  // --origin, as Express's cors middleware: true when it answered a preflight itself.
  bool apply_cors(Call& call);
  // The API key check (--apikey): the 401 reply when `call` fails it.
  std::optional<AdminReply> refuse_without_key(Call& call) const;

  AdminState state_;
};

}  // namespace rift
