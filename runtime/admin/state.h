// What every admin handler works on: the running imposters and the process around them. The
// admin API runs on the control thread, one call at a time, so handlers need no locks.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "compiler/errors.h"
#include "runtime/admin/call.h"
#include "runtime/base/logger.h"
#include "runtime/events/event_bus.h"
#include "runtime/imposter/registry.h"
#include "runtime/imposter/views.h"
#include "runtime/options/options.h"

namespace rift {

class DatadirSync;
class Tiering;
namespace front_door {
class FrontDoor;
}
namespace intercept {
class Intercept;
}

struct AdminState {
  Registry& registry;
  const Options& options;
  Logger& logger;
  const Tiering* tiering = nullptr;  // the JIT's, when it runs: its series join GET /metrics
  DatadirSync* datadir = nullptr;    // --datadir: every change is saved before it is answered
  // The event stream's bus (GET /events); null: no stream in this process.
  std::shared_ptr<events::EventBus> events;
  // The front door's route table (GET/PUT /front-door/routes); never null once serving.
  front_door::FrontDoor* front_door = nullptr;
  // Where the intercept proxy lives while it runs (POST/DELETE /intercept); owned by the process,
  // which may also start it from flags. Null: this server cannot run one.
  std::unique_ptr<intercept::Intercept>* intercept = nullptr;

  // Tells the event stream's lifecycle subscribers; `port` unset: every imposter.
  void announce(events::Action action, std::optional<int> port) const {
    if (events) events->lifecycle(action, port);
  }

  // How an answer carrying imposters renders them: in `form`, with --debug's matches and the
  // caller's Host in every link. Only the read and delete routes honour ?removeProxies.
  RenderOptions render(const Call& call, ImposterForm form, bool remove_proxies = false) const;
  // Under --datadir, answers 500 when `failure` says a change could not be saved.
  bool saved(Call& call, const std::optional<std::string>& failure);
};

// A change that could not be written to --datadir: not acknowledged, so the client must not
// count on it surviving a restart.
MbError datadir_error(const std::string& failure);

inline constexpr const char* kNoSuchResource = "Try POSTing to /imposters first?";

}  // namespace rift
