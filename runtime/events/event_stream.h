// One client of the admin event stream: a subscriber on the bus and the producer of a streaming
// reply. Publishers on any thread queue frames here; the stream writes them from its
// connection's loop, all that queued in one chunk, and only once the last chunk is on the wire.
//
// A client that stops reading therefore holds at most kCapacity frames: past that the oldest go,
// and a `lagged` frame counting them is written before the rest (the reference Rift's broadcast
// capacity). An idle stream writes a `: ping` comment every ping interval.
#pragma once

#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "runtime/events/event_bus.h"
#include "runtime/http/message.h"

namespace rift::events {

class EventStream final : public Subscriber,
                          public http::StreamProducer,
                          public std::enable_shared_from_this<EventStream> {
 public:
  static constexpr size_t kCapacity = 1024;
  static constexpr std::chrono::seconds kPingInterval{15};

  EventStream(std::shared_ptr<EventBus> bus, Interest interest,
              std::chrono::milliseconds ping_interval = kPingInterval);

  // Subscriber, any thread.
  const Interest& interest() const override { return interest_; }
  void deliver(std::shared_ptr<const std::string> frame) override;

  // StreamProducer, the connection's loop.
  void open(std::weak_ptr<http::ChunkSink> sink, boost::asio::io_context& loop) override;
  void writable() override;
  void closed() override;

 private:
  void queue(std::shared_ptr<const std::string> frame);  // under mutex_
  void post_pump();                                      // under mutex_
  void pump();
  void arm_ping();

  const std::shared_ptr<EventBus> bus_;
  const Interest interest_;
  const std::chrono::milliseconds ping_interval_;

  std::mutex mutex_;
  std::deque<std::shared_ptr<const std::string>> frames_;
  uint64_t missed_ = 0;
  bool pump_posted_ = false;
  boost::asio::io_context* loop_ = nullptr;  // set by open(), under mutex_

  // The loop's own.
  std::weak_ptr<http::ChunkSink> sink_;
  std::optional<boost::asio::steady_timer> ping_timer_;
  std::string chunk_;
  bool closed_ = false;
};

}  // namespace rift::events
