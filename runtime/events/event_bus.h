// The admin event stream's broadcast (docs/journal.md#event-stream): recorded requests and
// imposter lifecycle changes, each numbered, handed to every subscriber that wants it.
//
// Publishing is on the request path, so a bus nobody listens to costs one relaxed atomic load
// (listening()) and nothing else: no sequence number, no JSON, no lock. With subscribers, each
// event is formatted once and the same frame is shared by all of them.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/ir.h"
#include "compiler/request.h"

namespace rift::events {

enum class Action { created, replaced, stubs_changed, enabled_changed, deleted, all_deleted };

std::string_view action_name(Action action);

// What one subscriber wants to hear.
struct Interest {
  bool requests = true;
  bool lifecycle = true;
  std::optional<int> port;  // unset: every imposter
  // savedRequests?match=... (request events only); null: every request.
  std::function<bool(const Request&)> match;

  bool wants_request(int port, const Request& request) const;
  bool wants_lifecycle(std::optional<int> port) const;
};

// The bus side of a subscriber. deliver() is called under the bus's lock, from any thread, in
// sequence order; it must only queue.
class Subscriber {
 public:
  virtual ~Subscriber() = default;
  virtual const Interest& interest() const = 0;
  virtual void deliver(std::shared_ptr<const std::string> frame) = 0;
};

class EventBus {
 public:
  explicit EventBus(std::string engine_version) : engine_version_(std::move(engine_version)) {}

  const std::string& engine_version() const { return engine_version_; }

  // True while anybody is subscribed: publishers check this before building anything.
  bool listening() const { return subscribers_count_.load(std::memory_order_relaxed) != 0; }
  size_t subscribers() const { return subscribers_count_.load(std::memory_order_relaxed); }
  // The `rift_event_stream_subscribers` gauge, in Prometheus' text format (GET /metrics).
  std::string render_metrics() const;

  // Returns the last sequence number issued, for the subscriber's hello frame; it hears every
  // event numbered after it.
  uint64_t subscribe(std::shared_ptr<Subscriber> subscriber);
  void unsubscribe(const Subscriber* subscriber);

  // `port` unset: every imposter (all_deleted).
  void lifecycle(Action action, std::optional<int> port);
  // A request `port` recorded as journal entry `index`; `json` builds its savedRequests form,
  // and runs only when some subscriber wants the request.
  void request(int port, const Request& request, uint64_t index,
               const std::function<ir::Json()>& json);

 private:
  // Numbers a frame and hands it to `wanted` subscribers; under mutex_.
  void broadcast(std::string_view event, const std::string& data,
                 const std::function<bool(const Interest&)>& wanted);

  const std::string engine_version_;
  std::mutex mutex_;
  std::vector<std::shared_ptr<Subscriber>> subscribers_;
  std::atomic<size_t> subscribers_count_{0};
  uint64_t sequence_ = 0;  // advances only while somebody listens, as the reference's
};

}  // namespace rift::events
