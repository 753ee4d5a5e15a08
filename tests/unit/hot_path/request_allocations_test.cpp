// The request path allocates nothing once warm: wire bytes -> RequestParser -> Imposter::handle
// (request model, plan lookup, predicates, the plan's pre-rendered reply) for the routing forms
// the benchmark scenarios use. Counted with a replaced global operator new, so this binary holds
// only these tests.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <string_view>

#include "runtime/http/parser.h"
#include "runtime/imposter/imposter.h"

namespace {
std::atomic<long> allocations{0};
}  // namespace

// GCC pairs the inlined replacement's malloc with the library's operator delete and warns; both
// halves are replaced here, so they do match.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

void* operator new(std::size_t size) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}

namespace rift {
namespace {

ir::Stub stub(ir::Json fields, std::string body) {
  ir::Predicate predicate;
  predicate.op = ir::Op::kEquals;
  predicate.fields = std::move(fields);
  ir::Stub out;
  out.predicates.push_back(std::move(predicate));
  ir::Response response;
  response.value = ir::Json{{"statusCode", 200}, {"body", std::move(body)}};
  out.responses.push_back(response);
  return out;
}

// Keeps the replies in a buffer reserved up front, as a connection's write buffer is.
struct Collect final : http::ReplySink {
  Collect() { bytes.reserve(1 << 20); }
  void on_reply(http::Reply reply) override {
    reply.append_to(bytes);
    ++replies;
  }
  std::string bytes;
  int replies = 0;
};

class RequestAllocations : public ::testing::Test {
 protected:
  void SetUp() override {
    ir::Imposter config;
    config.protocol = "http";
    config.port = 4545;
    config.stubs = {
        stub({{"path", "/health"}}, "OK"),
        stub({{"method", "GET"}, {"path", "/api/v1/resource5/5"}}, R"({"id": 5})"),
        stub({{"headers", {{"X-Route-Id", "route-100"}}}}, "by header"),
        stub({{"query", {{"page", "100"}}}}, "by query"),
    };
    ServingOptions options;
    options.keep_alive = true;
    auto created = Imposter::create(std::move(config), std::move(options));
    ASSERT_TRUE(std::holds_alternative<std::shared_ptr<Imposter>>(created));
    imposter_ = std::get<std::shared_ptr<Imposter>>(created);
  }

  // Parses `wire` and answers it; true when the reply contains `expected`.
  bool serve(std::string_view wire, std::string_view expected) {
    const auto result = parser_.feed(wire.data(), wire.size());
    if (result.status != http::RequestParser::Status::message) return false;
    http::Message& message = parser_.message();
    message.remote_address = "127.0.0.1";
    message.remote_port = 50000;
    collect_->bytes.clear();
    imposter_->handle(std::move(message), http::Respond(collect_));
    parser_.next();
    return collect_->bytes.find(expected) != std::string::npos;
  }

  // Allocations made by `rounds` requests after as many warm-up requests.
  long steady_allocations(std::string_view wire, std::string_view expected, int rounds = 200) {
    for (int i = 0; i < rounds; ++i) {
      if (!serve(wire, expected)) ADD_FAILURE() << "unexpected answer to " << wire;
    }
    const long before = allocations.load();
    for (int i = 0; i < rounds; ++i) serve(wire, expected);
    return allocations.load() - before;
  }

  std::shared_ptr<Imposter> imposter_;
  http::RequestParser parser_{http::Limits{}};
  std::shared_ptr<Collect> collect_ = std::make_shared<Collect>();
};

TEST_F(RequestAllocations, AnExactPathAllocatesNothing) {
  EXPECT_EQ(steady_allocations("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n", "\r\nOK\r\n"), 0);
}

TEST_F(RequestAllocations, AMethodAndLongPathAllocateNothing) {
  EXPECT_EQ(steady_allocations("GET /api/v1/resource5/5 HTTP/1.1\r\nHost: localhost\r\n"
                               "User-Agent: a-client-with-a-long-name/1.0\r\n\r\n",
                               R"({"id": 5})"),
            0);
}

TEST_F(RequestAllocations, AHeaderLookupAllocatesNothing) {
  EXPECT_EQ(steady_allocations("GET /headers/route HTTP/1.1\r\nHost: localhost\r\n"
                               "X-Route-Id: route-100\r\n\r\n",
                               "by header"),
            0);
}

TEST_F(RequestAllocations, AQueryLookupAllocatesNothing) {
  EXPECT_EQ(steady_allocations("GET /query/search?page=100&size=10 HTTP/1.1\r\n"
                               "Host: localhost\r\n\r\n",
                               "by query"),
            0);
}

TEST_F(RequestAllocations, TheDefaultResponseAllocatesNothing) {
  EXPECT_EQ(
      steady_allocations("GET /nonexistent HTTP/1.1\r\nHost: localhost\r\n\r\n", "HTTP/1.1 200 OK"),
      0);
}

TEST_F(RequestAllocations, APostedBodyAllocatesNothing) {
  EXPECT_EQ(steady_allocations("POST /health HTTP/1.1\r\nHost: localhost\r\n"
                               "Content-Type: application/json\r\nContent-Length: 40\r\n\r\n"
                               R"({"orderId":"ord-100","channel":"web-ui"})",
                               "\r\nOK\r\n"),
            0);
}

// The counter is live: a request that must allocate is seen allocating.
TEST_F(RequestAllocations, TheCounterSeesAllocations) {
  const long before = allocations.load();
  auto held = std::make_unique<std::string>(100, 'x');
  EXPECT_GT(allocations.load(), before);
}

}  // namespace
}  // namespace rift
