// The network layer over real sockets on 127.0.0.1.
#include <sys/socket.h>
#include <sys/time.h>

#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <future>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "runtime/http/server.h"

namespace rift::http {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

std::string ok_response(const std::string& body, bool close = false) {
  return "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(body.size()) +
         (close ? "\r\nConnection: close" : "\r\nConnection: keep-alive") + "\r\n\r\n" + body;
}

// Answers "<METHOD> <target> <body>" so tests can see exactly what arrived.
std::shared_ptr<const Handler> echo_handler() {
  return std::make_shared<const Handler>([](Message&& message, Respond respond) {
    Reply reply;
    reply.bytes = ok_response(message.method + " " + message.target + " " + message.body);
    respond(std::move(reply));
  });
}

// A blocking client with a receive timeout, so a server bug fails the test instead of hanging it.
class Client {
 public:
  explicit Client(uint16_t port) : socket_(context_) {
    socket_.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
    timeval timeout{5, 0};
    setsockopt(socket_.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  }

  void send(const std::string& bytes) { asio::write(socket_, asio::buffer(bytes)); }

  // One response framed by Content-Length; "" when the connection ended first.
  std::string response() {
    for (;;) {
      const size_t end = pending_.find("\r\n\r\n");
      if (end != std::string::npos) {
        size_t length = 0;
        const size_t header = pending_.find("Content-Length: ");
        if (header != std::string::npos && header < end) {
          length = std::stoul(pending_.substr(header + 16));
        }
        if (pending_.size() >= end + 4 + length) {
          std::string out = pending_.substr(0, end + 4 + length);
          pending_.erase(0, end + 4 + length);
          return out;
        }
      }
      if (!fill()) return "";
    }
  }

  // Everything until the server closes (or resets) the connection.
  std::string rest() {
    while (fill()) {
    }
    return std::exchange(pending_, {});
  }

  bool closed_by_peer() {
    std::string ignored = rest();
    return last_error_ == asio::error::eof || last_error_ == asio::error::connection_reset;
  }

  boost::system::error_code last_error() const { return last_error_; }

 private:
  bool fill() {
    char chunk[4096];
    const size_t size = socket_.read_some(asio::buffer(chunk), last_error_);
    if (last_error_) return false;
    pending_.append(chunk, size);
    return true;
  }

  asio::io_context context_;
  tcp::socket socket_;
  std::string pending_;
  boost::system::error_code last_error_;
};

std::string body_of(const std::string& response) {
  return response.substr(response.find("\r\n\r\n") + 4);
}

class HttpServerTest : public ::testing::Test {
 protected:
  uint16_t listen(std::shared_ptr<const Handler> handler, Limits limits = {}) {
    auto bound = server_.listen("127.0.0.1", 0, std::move(handler), limits);
    EXPECT_TRUE(std::holds_alternative<uint16_t>(bound));
    return std::get<uint16_t>(bound);
  }

  Server server_{2};
};

TEST_F(HttpServerTest, ListenOnPortZeroReturnsARealPort) {
  const uint16_t port = listen(echo_handler());
  EXPECT_NE(port, 0);
  Client client(port);
  client.send("GET /x HTTP/1.1\r\nHost: a\r\n\r\n");
  EXPECT_EQ(body_of(client.response()), "GET /x ");
}

TEST_F(HttpServerTest, KeepAliveServesTwoRequestsOnOneConnection) {
  Client client(listen(echo_handler()));
  client.send("GET /one HTTP/1.1\r\nHost: a\r\n\r\n");
  EXPECT_EQ(body_of(client.response()), "GET /one ");
  client.send("POST /two HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc");
  EXPECT_EQ(body_of(client.response()), "POST /two abc");
}

TEST_F(HttpServerTest, PipelinedRequestsAreAnsweredInOrder) {
  // /slow is answered late: /first (gathered before it) goes out first, the rest after it.
  auto handler = std::make_shared<const Handler>([](Message&& message, Respond respond) {
    Reply reply;
    reply.bytes = ok_response(message.target);
    if (message.target == "/slow") reply.delay = std::chrono::milliseconds(100);
    respond(std::move(reply));
  });
  Client client(listen(handler));
  client.send(
      "GET /first HTTP/1.1\r\nHost: a\r\n\r\n"
      "GET /slow HTTP/1.1\r\nHost: a\r\n\r\n"
      "GET /fast HTTP/1.1\r\nHost: a\r\n\r\n"
      "POST /third HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n");
  EXPECT_EQ(body_of(client.response()), "/first");
  EXPECT_EQ(body_of(client.response()), "/slow");
  EXPECT_EQ(body_of(client.response()), "/fast");
  EXPECT_EQ(body_of(client.response()), "/third");
}

TEST_F(HttpServerTest, APipelineLongerThanTheReadBufferIsAnsweredInFullAndInOrder) {
  // 2,000 requests (~70 KB) span several 16 KiB reads and split requests across them.
  std::string pipeline;
  for (int i = 0; i < 2000; ++i)
    pipeline += "GET /" + std::to_string(i) + " HTTP/1.1\r\nHost: a\r\n\r\n";
  Client client(listen(echo_handler()));
  client.send(pipeline);
  for (int i = 0; i < 2000; ++i) {
    ASSERT_EQ(body_of(client.response()), "GET /" + std::to_string(i) + " ") << i;
  }
}

TEST_F(HttpServerTest, DelayedReplyOnOneConnectionDoesNotHoldUpAnother) {
  std::atomic<int> order{0};
  auto handler = std::make_shared<const Handler>([](Message&& message, Respond respond) {
    Reply reply;
    reply.bytes = ok_response(message.target);
    if (message.target == "/slow") reply.delay = std::chrono::milliseconds(300);
    respond(std::move(reply));
  });
  const uint16_t port = listen(handler);
  Client slow(port);
  Client fast(port);
  slow.send("GET /slow HTTP/1.1\r\nHost: a\r\n\r\n");
  fast.send("GET /fast HTTP/1.1\r\nHost: a\r\n\r\n");
  int fast_rank = 0;
  int slow_rank = 0;
  std::thread slow_reader([&] {
    EXPECT_EQ(body_of(slow.response()), "/slow");
    slow_rank = ++order;
  });
  EXPECT_EQ(body_of(fast.response()), "/fast");
  fast_rank = ++order;
  slow_reader.join();
  EXPECT_LT(fast_rank, slow_rank);
}

TEST_F(HttpServerTest, ChunkedBodyArrivesDechunked) {
  Client client(listen(echo_handler()));
  client.send(
      "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
      "3\r\nabc\r\n5\r\ndefgh\r\n0\r\n\r\n");
  EXPECT_EQ(body_of(client.response()), "POST /c abcdefgh");
}

TEST_F(HttpServerTest, MessageCarriesHeadersVersionAndPeer) {
  Message seen;
  auto handler = std::make_shared<const Handler>([&seen](Message&& message, Respond respond) {
    seen = std::move(message);
    Reply reply;
    reply.bytes = ok_response("");
    respond(std::move(reply));
  });
  Client client(listen(handler));
  client.send("GET /p?q=1 HTTP/1.0\r\nX-A: 1\r\nx-a: 2\r\nX-A: 3\r\nEmpty:\r\n\r\n");
  client.response();
  EXPECT_EQ(seen.method, "GET");
  EXPECT_EQ(seen.target, "/p?q=1");
  EXPECT_EQ(seen.version_major, 1);
  EXPECT_EQ(seen.version_minor, 0);
  const KeyValues expected = {{"X-A", "1"}, {"x-a", "2"}, {"X-A", "3"}, {"Empty", ""}};
  EXPECT_EQ(seen.headers, expected);
  EXPECT_EQ(seen.remote_address, "127.0.0.1");
  EXPECT_NE(seen.remote_port, 0);
  // HTTP/1.0 without keep-alive closes after the reply.
  EXPECT_TRUE(client.closed_by_peer());
}

TEST_F(HttpServerTest, ReplyCloseClosesTheConnection) {
  auto handler = std::make_shared<const Handler>([](Message&&, Respond respond) {
    Reply reply;
    reply.bytes = ok_response("bye", true);
    reply.close = true;
    respond(std::move(reply));
  });
  Client client(listen(handler));
  client.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
  EXPECT_EQ(body_of(client.response()), "bye");
  EXPECT_TRUE(client.closed_by_peer());
}

TEST_F(HttpServerTest, MalformedRequestGets400AndCloseWhileOthersKeepWorking) {
  const uint16_t port = listen(echo_handler());
  Client good(port);
  good.send("GET /before HTTP/1.1\r\nHost: a\r\n\r\n");
  EXPECT_EQ(body_of(good.response()), "GET /before ");

  Client bad(port);
  bad.send("THIS IS NOT HTTP\r\n\r\n");
  const std::string answer = bad.rest();
  EXPECT_EQ(answer.rfind("HTTP/1.1 400 Bad Request\r\n", 0), 0u) << answer;
  EXPECT_NE(answer.find("Connection: close"), std::string::npos);

  good.send("GET /after HTTP/1.1\r\nHost: a\r\n\r\n");
  EXPECT_EQ(body_of(good.response()), "GET /after ");
}

TEST_F(HttpServerTest, HugeHeadersGet431) {
  Client client(listen(echo_handler()));
  std::string request = "GET / HTTP/1.1\r\nHost: a\r\n";
  for (int i = 0; i < 70; ++i)
    request += "X-Filler-" + std::to_string(i) + ": " + std::string(1024, 'x') + "\r\n";
  request += "\r\n";
  client.send(request);
  const std::string answer = client.rest();
  EXPECT_EQ(answer.rfind("HTTP/1.1 431 ", 0), 0u) << answer.substr(0, 100);
}

TEST_F(HttpServerTest, OversizedBodyGets413) {
  Limits limits;
  limits.max_body_bytes = 1000;
  const uint16_t port = listen(echo_handler(), limits);
  {
    Client declared(port);
    declared.send("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1001\r\n\r\n" +
                  std::string(1001, 'b'));
    EXPECT_EQ(declared.rest().rfind("HTTP/1.1 413 ", 0), 0u);
  }
  {
    Client chunked(port);
    chunked.send("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n");
    for (int i = 0; i < 3; ++i) chunked.send("190\r\n" + std::string(400, 'c') + "\r\n");
    chunked.send("0\r\n\r\n");
    EXPECT_EQ(chunked.rest().rfind("HTTP/1.1 413 ", 0), 0u);
  }
  {
    Client exact(port);
    exact.send("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1000\r\n\r\n" +
               std::string(1000, 'b'));
    EXPECT_EQ(body_of(exact.response()), "POST / " + std::string(1000, 'b'));
  }
}

TEST_F(HttpServerTest, ExpectContinueGets100BeforeTheBody) {
  Client client(listen(echo_handler()));
  client.send("POST /e HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n");
  EXPECT_EQ(client.response(), "HTTP/1.1 100 Continue\r\n\r\n");
  client.send("data");
  EXPECT_EQ(body_of(client.response()), "POST /e data");
}

TEST_F(HttpServerTest, ResetReplyDropsTheConnectionWithoutBytes) {
  auto handler = std::make_shared<const Handler>([](Message&&, Respond respond) {
    Reply reply;
    reply.bytes = "never sent";
    reply.reset = true;
    respond(std::move(reply));
  });
  Client client(listen(handler));
  client.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
  EXPECT_EQ(client.rest(), "");
  EXPECT_EQ(client.last_error(), asio::error::connection_reset);
}

TEST_F(HttpServerTest, ListeningTwiceOnOnePortFails) {
  const uint16_t port = listen(echo_handler());
  auto again = server_.listen("127.0.0.1", port, echo_handler(), {});
  ASSERT_TRUE(std::holds_alternative<std::string>(again));
  EXPECT_EQ(std::get<std::string>(again), "EADDRINUSE");
  // The first listener is unharmed.
  Client client(port);
  client.send("GET /still HTTP/1.1\r\nHost: a\r\n\r\n");
  EXPECT_EQ(body_of(client.response()), "GET /still ");
}

TEST_F(HttpServerTest, PortHeldElsewhereFails) {
  asio::io_context context;
  tcp::acceptor other(context, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  auto bound = server_.listen("127.0.0.1", other.local_endpoint().port(), echo_handler(), {});
  ASSERT_TRUE(std::holds_alternative<std::string>(bound));
  EXPECT_EQ(std::get<std::string>(bound), "EADDRINUSE");
}

TEST_F(HttpServerTest, CloseFreesThePortAndDropsConnections) {
  const uint16_t port = listen(echo_handler());
  Client open(port);
  open.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
  open.response();
  server_.close(port);
  EXPECT_TRUE(open.closed_by_peer());
  EXPECT_THROW(Client refused(port), boost::system::system_error);
  // The port can be bound again at once, by this server.
  auto again = server_.listen("127.0.0.1", port, echo_handler(), {});
  ASSERT_TRUE(std::holds_alternative<uint16_t>(again));
  Client client(port);
  client.send("GET /again HTTP/1.1\r\nHost: a\r\n\r\n");
  EXPECT_EQ(body_of(client.response()), "GET /again ");
}

TEST_F(HttpServerTest, CloseFromTheControlThreadDoesNotDeadlock) {
  const uint16_t port = listen(echo_handler());
  server_.call_on_control([&] { server_.close(port); });
  EXPECT_THROW(Client refused(port), boost::system::system_error);
}

TEST_F(HttpServerTest, ControlListenerCanWaitOnWorkers) {
  const uint16_t imposter = listen(echo_handler());
  auto admin = std::make_shared<const Handler>([this, imposter](Message&&, Respond respond) {
    server_.close(imposter);  // blocks the control thread until the workers are done
    Reply reply;
    reply.bytes = ok_response("closed");
    respond(std::move(reply));
  });
  auto bound = server_.listen("127.0.0.1", 0, admin, {}, /*on_control=*/true);
  ASSERT_TRUE(std::holds_alternative<uint16_t>(bound));
  Client client(std::get<uint16_t>(bound));
  client.send("DELETE /imposters HTTP/1.1\r\nHost: a\r\n\r\n");
  EXPECT_EQ(body_of(client.response()), "closed");
  EXPECT_THROW(Client refused(imposter), boost::system::system_error);
}

TEST_F(HttpServerTest, DualStackListenerSeesMappedAddress) {
  std::string seen;
  auto handler = std::make_shared<const Handler>([&seen](Message&& message, Respond respond) {
    seen = message.remote_address;
    Reply reply;
    reply.bytes = ok_response("");
    respond(std::move(reply));
  });
  auto bound = server_.listen("", 0, handler, {});
  ASSERT_TRUE(std::holds_alternative<uint16_t>(bound));
  Client client(std::get<uint16_t>(bound));
  client.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
  client.response();
  EXPECT_TRUE(seen == "::ffff:127.0.0.1" || seen == "127.0.0.1") << seen;
}

TEST_F(HttpServerTest, PeerClosingMidRequestIsHarmless) {
  const uint16_t port = listen(echo_handler());
  {
    Client quitter(port);
    quitter.send("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\npartial");
  }
  Client client(port);
  client.send("GET /fine HTTP/1.1\r\nHost: a\r\n\r\n");
  EXPECT_EQ(body_of(client.response()), "GET /fine ");
}

TEST_F(HttpServerTest, ReplyFromAnotherThreadIsDelivered) {
  auto parked = std::make_shared<std::promise<Respond>>();
  auto handler = std::make_shared<const Handler>(
      [parked](Message&&, Respond respond) { parked->set_value(std::move(respond)); });
  Client client(listen(handler));
  client.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
  Respond respond = parked->get_future().get();
  Reply reply;
  reply.bytes = ok_response("later");
  respond(std::move(reply));
  EXPECT_EQ(body_of(client.response()), "later");
}

// An empty Respond fails as an empty std::function did: with an exception the connection turns
// into a 500, not a null call.
TEST(Respond, AnEmptyRespondThrowsLikeAnEmptyFunction) {
  Respond empty;
  EXPECT_FALSE(empty);
  EXPECT_THROW(empty(Reply{}), std::bad_function_call);
}

}  // namespace
}  // namespace rift::http
