// The event bus and one stream on it, without sockets: numbering, filters, the hello frame, a
// slow client's `lagged` frame and the idle ping. The wire is tests/e2e/test_event_stream.py.
#include "runtime/events/event_stream.h"

#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <thread>

#include "runtime/events/event_bus.h"
#include "runtime/events/sse_frames.h"

namespace rift::events {
namespace {

// Stands in for the connection: keeps every chunk, and is busy while the test says so.
struct FakeSink final : http::ChunkSink {
  void write_chunk(std::string_view data) override { chunks.emplace_back(data); }
  bool busy() const override { return is_busy; }
  std::vector<std::string> chunks;
  bool is_busy = false;
};

Request request_to(const std::string& path) {
  Request request;
  request.method = "GET";
  request.path = path;
  request.flow_id = "f1";
  return request;
}

ir::Json entry(const std::string& path) {
  return ir::Json{{"path", path}};
}

struct Opened {
  boost::asio::io_context loop;
  std::shared_ptr<FakeSink> sink = std::make_shared<FakeSink>();
  std::shared_ptr<EventStream> stream;

  Opened(std::shared_ptr<EventBus> bus, Interest interest,
         std::chrono::milliseconds ping = EventStream::kPingInterval)
      : stream(std::make_shared<EventStream>(std::move(bus), std::move(interest), ping)) {
    stream->open(sink, loop);
  }
  // As the connection does when it closes: the bus lets go of the stream.
  ~Opened() { stream->closed(); }
  std::string written() {
    loop.poll();
    std::string all;
    for (const auto& chunk : sink->chunks) all += chunk;
    return all;
  }
};

TEST(EventBus, NobodyListeningCostsNoSequenceNumber) {
  auto bus = std::make_shared<EventBus>("1.2.3");
  EXPECT_FALSE(bus->listening());
  bool built = false;
  bus->lifecycle(Action::created, 1);
  bus->request(1, request_to("/x"), 1, [&] {
    built = true;
    return entry("/x");
  });
  EXPECT_FALSE(built);
  Opened opened(bus, Interest{});
  EXPECT_TRUE(bus->listening());
  EXPECT_EQ(opened.written(),
            "event: hello\ndata: "
            R"({"engineVersion":"1.2.3","port":null,"seq":0,"types":["requests","lifecycle"]})"
            "\n\n");
}

TEST(EventBus, FramesAreNumberedInOrderAndFilteredOnesStillUseANumber) {
  auto bus = std::make_shared<EventBus>("v");
  Interest gets_on_7;
  gets_on_7.lifecycle = false;
  gets_on_7.port = 7;
  gets_on_7.match = [](const Request& request) { return request.path == "/wanted"; };
  Opened opened(bus, gets_on_7);
  opened.written();
  opened.sink->chunks.clear();
  bus->request(8, request_to("/wanted"), 1, [] { return entry("/wanted"); });  // other port
  bus->request(7, request_to("/other"), 2, [] { return entry("/other"); });    // no match
  bus->lifecycle(Action::deleted, 7);                                          // no lifecycle
  bus->request(7, request_to("/wanted"), 3, [] { return entry("/wanted"); });
  EXPECT_EQ(opened.written(),
            "event: request\nid: 4\ndata: "
            R"({"flowId":"f1","index":3,"port":7,"request":{"path":"/wanted"}})"
            "\n\n");
}

TEST(EventBus, APortFilterStillHearsThatEveryImposterWasDeleted) {
  auto bus = std::make_shared<EventBus>("v");
  Interest port_7;
  port_7.port = 7;
  Opened opened(bus, port_7);
  opened.written();
  opened.sink->chunks.clear();
  bus->lifecycle(Action::created, 8);
  bus->lifecycle(Action::stubs_changed, 7);
  bus->lifecycle(Action::all_deleted, std::nullopt);
  EXPECT_EQ(opened.written(),
            "event: imposter\nid: 2\ndata: {\"action\":\"stubsChanged\",\"port\":7}\n\n"
            "event: imposter\nid: 3\ndata: {\"action\":\"allDeleted\"}\n\n");
}

TEST(EventStream, AClientThatStopsReadingLosesTheOldestAndIsToldHowMany) {
  auto bus = std::make_shared<EventBus>("v");
  Opened opened(bus, Interest{});
  opened.written();
  opened.sink->chunks.clear();
  opened.sink->is_busy = true;  // the last chunk is still going out
  const size_t total = EventStream::kCapacity + 3;
  for (size_t i = 1; i <= total; ++i) bus->lifecycle(Action::stubs_changed, 1);
  EXPECT_EQ(opened.written(), "");  // nothing written while busy
  opened.sink->is_busy = false;
  opened.stream->writable();
  const std::string text = opened.written();
  EXPECT_TRUE(text.starts_with("event: lagged\ndata: {\"missed\":3}\n\nevent: imposter\nid: 4\n"))
      << text.substr(0, 120);
  EXPECT_TRUE(text.ends_with("id: " + std::to_string(total) +
                             "\ndata: {\"action\":\"stubsChanged\",\"port\":1}\n\n"));
}

TEST(EventStream, AnIdleStreamPings) {
  auto bus = std::make_shared<EventBus>("v");
  Opened opened(bus, Interest{}, std::chrono::milliseconds(20));
  opened.written();
  opened.sink->chunks.clear();
  opened.loop.run_for(std::chrono::milliseconds(70));
  ASSERT_FALSE(opened.sink->chunks.empty());
  EXPECT_EQ(opened.sink->chunks.front(), kPingFrame);
}

// Workers publish on their own threads while the stream writes on its loop's: every frame arrives
// once, numbered in the order it was written (tools/test-all runs this under ThreadSanitizer).
TEST(EventStream, PublishersOnManyThreadsAndOneStreamAgree) {
  auto bus = std::make_shared<EventBus>("v");
  Opened opened(bus, Interest{});
  opened.written();
  opened.sink->chunks.clear();
  constexpr int kThreads = 4;
  constexpr int kEach = 200;  // 800 frames: under the stream's capacity, so none is dropped
  std::atomic<bool> done{false};
  std::thread loop([&] {
    while (!done.load()) opened.loop.run_for(std::chrono::milliseconds(1));
  });
  std::vector<std::thread> publishers;
  for (int t = 0; t < kThreads; ++t) {
    publishers.emplace_back([&bus, t] {
      const Request request = request_to("/t" + std::to_string(t));
      for (int i = 0; i < kEach; ++i) {
        if (i % 2 == 0) {
          bus->lifecycle(Action::stubs_changed, t);
        } else {
          bus->request(t, request, static_cast<uint64_t>(i), [&] { return entry(request.path); });
        }
      }
    });
  }
  for (auto& publisher : publishers) publisher.join();
  done.store(true);
  loop.join();
  // Every frame is queued and its pump posted: run what is left here.
  opened.loop.restart();
  while (opened.loop.poll() > 0) {
  }
  std::string text;
  for (const auto& chunk : opened.sink->chunks) text += chunk;
  uint64_t expected = 1;
  for (size_t at = text.find("id: "); at != std::string::npos; at = text.find("id: ", at + 1)) {
    EXPECT_EQ(std::stoull(text.substr(at + 4)), expected);
    ++expected;
  }
  EXPECT_EQ(expected - 1, static_cast<uint64_t>(kThreads * kEach));
  EXPECT_EQ(text.find("lagged"), std::string::npos);
}

TEST(EventStream, AClosedStreamLeavesTheBus) {
  auto bus = std::make_shared<EventBus>("v");
  Opened opened(bus, Interest{});
  EXPECT_TRUE(bus->listening());
  opened.stream->closed();
  EXPECT_FALSE(bus->listening());
}

}  // namespace
}  // namespace rift::events
