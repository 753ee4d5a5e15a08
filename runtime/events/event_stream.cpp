#include "runtime/events/event_stream.h"

#include <boost/asio/post.hpp>

#include "runtime/events/sse_frames.h"

namespace rift::events {
namespace {

std::shared_ptr<const std::string> ping_frame() {
  static const auto kPing = std::make_shared<const std::string>(kPingFrame);
  return kPing;
}

}  // namespace

EventStream::EventStream(std::shared_ptr<EventBus> bus, Interest interest,
                         std::chrono::milliseconds ping_interval)
    : bus_(std::move(bus)), interest_(std::move(interest)), ping_interval_(ping_interval) {}

void EventStream::deliver(std::shared_ptr<const std::string> frame) {
  std::lock_guard lock(mutex_);
  queue(std::move(frame));
}

void EventStream::queue(std::shared_ptr<const std::string> frame) {
  if (frames_.size() == kCapacity) {
    frames_.pop_front();
    ++missed_;
  }
  frames_.push_back(std::move(frame));
  post_pump();
}

void EventStream::post_pump() {
  if (pump_posted_ || loop_ == nullptr) return;
  pump_posted_ = true;
  boost::asio::post(*loop_, [self = shared_from_this()] { self->pump(); });
}

void EventStream::open(std::weak_ptr<http::ChunkSink> sink, boost::asio::io_context& loop) {
  sink_ = std::move(sink);
  ir::Json types = ir::Json::array();
  if (interest_.requests) types.push_back("requests");
  if (interest_.lifecycle) types.push_back("lifecycle");
  // Subscribed here, once the head is out: the hello's seq is where this stream starts.
  const uint64_t seq = bus_->subscribe(shared_from_this());
  const ir::Json hello = {{"engineVersion", bus_->engine_version()},
                          {"port", interest_.port ? ir::Json(*interest_.port) : ir::Json()},
                          {"seq", seq},
                          {"types", types}};
  {
    std::lock_guard lock(mutex_);
    loop_ = &loop;
    frames_.push_front(
        std::make_shared<const std::string>(frame("hello", {}, canonical_json(hello))));
  }
  ping_timer_.emplace(loop);
  arm_ping();
  pump();
}

void EventStream::writable() {
  pump();
}

void EventStream::closed() {
  if (closed_) return;
  closed_ = true;
  if (ping_timer_) ping_timer_->cancel();
  bus_->unsubscribe(this);
}

// Writes every queued frame as one chunk, unless the last chunk is still going out (then
// writable() comes back here when it is).
void EventStream::pump() {
  const auto sink = sink_.lock();
  std::deque<std::shared_ptr<const std::string>> frames;
  uint64_t missed = 0;
  {
    std::lock_guard lock(mutex_);
    pump_posted_ = false;
    if (closed_ || !sink || sink->busy() || frames_.empty()) return;
    frames.swap(frames_);
    missed = std::exchange(missed_, 0);
  }
  chunk_.clear();
  if (missed > 0) chunk_ = frame("lagged", {}, canonical_json(ir::Json{{"missed", missed}}));
  for (const auto& text : frames) chunk_.append(*text);
  sink->write_chunk(chunk_);
}

void EventStream::arm_ping() {
  ping_timer_->expires_after(ping_interval_);
  ping_timer_->async_wait([weak = weak_from_this()](boost::system::error_code error) {
    const auto self = weak.lock();
    if (error || !self || self->closed_) return;
    {
      std::lock_guard lock(self->mutex_);
      self->queue(ping_frame());
    }
    self->arm_ping();
  });
}

}  // namespace rift::events
