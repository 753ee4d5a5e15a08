// What one call costs in process (docs/performance.md#in-process): rift_request through the
// gateway to an imposter, an admin read through the route table, and the same imposter call
// over a kept-alive loopback connection for comparison. Run: build/bench/rift_embed_bench.
#include <arpa/inet.h>
#include <benchmark/benchmark.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "rift.h"

namespace {

constexpr int kPort = 47311;
constexpr const char* kImposter =
    R"({"port": 47311, "protocol": "http", "stubs": [{"predicates": [{"equals": {"path": "/hello"}}],)"
    R"("responses": [{"is": {"statusCode": 200, "headers": {"Content-Type": "application/json"},)"
    R"("body": "{\"greeting\":\"hi\"}"}}]}]})";

// One engine with the imposter, for the whole run.
class Fixture {
 public:
  Fixture() {
    if (rift_engine_open(R"({"threads": 1})", &engine_, nullptr) != RIFT_OK) {
      throw std::runtime_error("rift_engine_open failed");
    }
    int32_t status = 0;
    rift_request(engine_, "POST", "/imposters", nullptr, kImposter, std::strlen(kImposter), &status,
                 nullptr, nullptr, nullptr, nullptr);
    if (status != 201) throw std::runtime_error("POST /imposters failed");
  }
  ~Fixture() { rift_engine_close(engine_); }
  rift_engine* engine() const { return engine_; }

 private:
  rift_engine* engine_ = nullptr;
};

Fixture& fixture() {
  static Fixture one;  // the benchmark's own engine, made on first use
  return one;
}

void call(benchmark::State& state, const char* method, const char* target) {
  rift_engine* engine = fixture().engine();
  for (auto _ : state) {
    int32_t status = 0;
    char* body = nullptr;
    size_t length = 0;
    if (rift_request(engine, method, target, nullptr, nullptr, 0, &status, &body, &length, nullptr,
                     nullptr) != RIFT_OK ||
        status != 200) {
      state.SkipWithError("call failed");
    }
    benchmark::DoNotOptimize(length);
    rift_free(body);
  }
}

void BM_GatewayCall(benchmark::State& state) {
  call(state, "GET", "/__rift/47311/hello");
}
BENCHMARK(BM_GatewayCall)->UseRealTime();

void BM_AdminRead(benchmark::State& state) {
  call(state, "GET", "/imposters/47311");
}
BENCHMARK(BM_AdminRead)->UseRealTime();

// The same imposter call over one kept-alive loopback connection.
void BM_LoopbackCall(benchmark::State& state) {
  fixture();
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(kPort);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    state.SkipWithError("connect failed");
    return;
  }
  const std::string request = "GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n";
  char buffer[4096];
  for (auto _ : state) {
    ::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
    // One small answer: the head and the 17-byte body arrive together or close behind.
    std::string reply;
    while (true) {
      const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
      if (n <= 0) {
        state.SkipWithError("connection closed");
        break;
      }
      reply.append(buffer, static_cast<size_t>(n));
      const auto head = reply.find("\r\n\r\n");
      if (head != std::string::npos && reply.size() >= head + 4 + 17) break;
    }
  }
  ::close(fd);
}
BENCHMARK(BM_LoopbackCall)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
