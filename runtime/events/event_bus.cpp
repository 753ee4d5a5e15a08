#include "runtime/events/event_bus.h"

#include <algorithm>

#include "runtime/events/sse_frames.h"

namespace rift::events {

std::string_view action_name(Action action) {
  switch (action) {
    case Action::created:
      return "created";
    case Action::replaced:
      return "replaced";
    case Action::stubs_changed:
      return "stubsChanged";
    case Action::enabled_changed:
      return "enabledChanged";
    case Action::deleted:
      return "deleted";
    case Action::all_deleted:
      return "allDeleted";
  }
  return "unknown";
}

bool Interest::wants_request(int imposter, const Request& request) const {
  return requests && (!port || *port == imposter) && (!match || match(request));
}

// A port filter drops another imposter's events, but not allDeleted, which concerns them all.
bool Interest::wants_lifecycle(std::optional<int> imposter) const {
  return lifecycle && (!port || !imposter || *port == *imposter);
}

std::string EventBus::render_metrics() const {
  return "# HELP rift_event_stream_subscribers Open GET /events streams\n"
         "# TYPE rift_event_stream_subscribers gauge\n"
         "rift_event_stream_subscribers " +
         std::to_string(subscribers()) + "\n\n";
}

uint64_t EventBus::subscribe(std::shared_ptr<Subscriber> subscriber) {
  std::lock_guard lock(mutex_);
  subscribers_.push_back(std::move(subscriber));
  subscribers_count_.store(subscribers_.size(), std::memory_order_relaxed);
  return sequence_;
}

void EventBus::unsubscribe(const Subscriber* subscriber) {
  std::lock_guard lock(mutex_);
  std::erase_if(subscribers_, [subscriber](const auto& held) { return held.get() == subscriber; });
  subscribers_count_.store(subscribers_.size(), std::memory_order_relaxed);
}

void EventBus::lifecycle(Action action, std::optional<int> port) {
  if (!listening()) return;
  ir::Json data = {{"action", std::string(action_name(action))}};
  if (port) data["port"] = *port;
  const std::string text = canonical_json(data);
  std::lock_guard lock(mutex_);
  broadcast("imposter", text,
            [port](const Interest& interest) { return interest.wants_lifecycle(port); });
}

void EventBus::request(int port, const Request& request, uint64_t index,
                       const std::function<ir::Json()>& json) {
  if (!listening()) return;
  const auto wanted = [&](const Interest& interest) {
    return interest.wants_request(port, request);
  };
  std::lock_guard lock(mutex_);
  // Built only for a request somebody wants, yet under the lock: a frame carries its sequence
  // number, and frames must reach every subscriber in that order.
  if (std::none_of(subscribers_.begin(), subscribers_.end(),
                   [&](const auto& subscriber) { return wanted(subscriber->interest()); })) {
    ++sequence_;  // the reference numbers filtered events too
    return;
  }
  const ir::Json data = {
      {"port", port}, {"flowId", request.flow_id}, {"index", index}, {"request", json()}};
  broadcast("request", canonical_json(data), wanted);
}

void EventBus::broadcast(std::string_view event, const std::string& data,
                         const std::function<bool(const Interest&)>& wanted) {
  const uint64_t id = ++sequence_;
  std::shared_ptr<const std::string> text;
  for (const auto& subscriber : subscribers_) {
    if (!wanted(subscriber->interest())) continue;
    if (!text) text = std::make_shared<const std::string>(frame(event, id, data));
    subscriber->deliver(text);
  }
}

}  // namespace rift::events
