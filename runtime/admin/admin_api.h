// Mountebank's admin API (spec section 1) on --port: imposters, stubs, journal, config, logs.
//
// Runs on the server's control thread, one request at a time, so edits are serialised without
// locks and a call returns only once its new plan is published.
#pragma once

#include <string>

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
  AdminApi(Registry& registry, const Options& options, Logger& logger,
           const Tiering* tiering = nullptr);

  void handle(http::Message&& message, http::Respond respond);

  // PUT /imposters semantics, also used to load --configfile at start-up.
  // Returns the error JSON body on failure.
  std::optional<ir::Json> replace_all(const ir::Json& imposters);

  // --datadir: from now on every change is saved through `datadir` before it is acknowledged.
  void persist_to(DatadirSync* datadir) { datadir_ = datadir; }
  // Creates an imposter saved in the datadir (validated as a POST is; not saved again).
  // Returns the error JSON body on failure.
  std::optional<ir::Json> restore(const ir::Json& document);

 private:
  struct Call;
  void route(Call& call);
  bool apply_cors(Call& call);
  void get_imposters(Call& call);
  void post_imposter(Call& call);
  void put_imposters(Call& call);
  void delete_imposters(Call& call);
  void get_imposter(Call& call, int port);
  void delete_imposter(Call& call, int port);
  void put_stubs(Call& call, Imposter& imposter);
  void post_stub(Call& call, Imposter& imposter);
  void put_stub(Call& call, Imposter& imposter, const std::string& index);
  void delete_stub(Call& call, Imposter& imposter, const std::string& index);
  void get_config(Call& call);
  void get_logs(Call& call);
  void get_metrics(Call& call);
  // Publishes new stubs and, under --datadir, saves the imposter; if that fails the previous
  // stubs go back in service. Returns the status and error to answer with on failure.
  std::optional<std::pair<int, MbError>> publish_stubs(Imposter& imposter,
                                                       std::vector<ir::Stub> stubs,
                                                       const std::vector<int>& keep);
  // Under --datadir, answers 500 when `failure` says a change could not be saved.
  bool saved(Call& call, const std::optional<std::string>& failure);

  Registry& registry_;
  const Options& options_;
  Logger& logger_;
  const Tiering* tiering_;
  DatadirSync* datadir_ = nullptr;
};

}  // namespace rift
