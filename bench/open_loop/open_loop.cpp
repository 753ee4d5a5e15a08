// An open-loop load generator for latency: requests are due at a fixed rate whatever the server
// does, and each one's latency counts from when it was due, not from when it could be sent, so
// a server that stalls is charged for every request it delayed (no coordinated omission, as in
// wrk2). wrk, a closed loop at saturation, measures queueing in its own 64 connections instead.
//
//   rift_open_loop --port 4549 --path /health --rate 40000 --connections 64 --duration 5
//                  [--warmup 1] [--method POST] [--header 'Content-Type: application/json']
//                  [--body '{"a":1}']
//
// Prints one JSON line: {"requests", "rate", "p50_us", "p90_us", "p99_us", "p999_us",
// "max_us", "non2xx", "late_starts"}. Keep-alive, one request in flight per connection;
// request k is due at start + k / rate and goes to connection k mod connections.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/open_loop/response_framer.h"

namespace {

using Clock = std::chrono::steady_clock;
using Nanos = std::chrono::nanoseconds;

struct Options {
  uint16_t port = 0;
  std::string path = "/";
  std::string method = "GET";
  std::vector<std::string> headers;
  std::string body;
  double rate = 1000;
  int connections = 64;
  double duration_s = 5;
  double warmup_s = 1;
};

[[noreturn]] void usage(const char* problem) {
  std::fprintf(stderr,
               "rift_open_loop: %s\nusage: rift_open_loop --port P [--path /p] [--method M] "
               "[--header 'N: V']... [--body B] --rate RPS [--connections C] [--duration S] "
               "[--warmup S]\n",
               problem);
  std::exit(2);
}

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view name = argv[i];
    if (i + 1 >= argc) usage("every option takes a value");
    const char* value = argv[++i];
    if (name == "--port") {
      options.port = static_cast<uint16_t>(std::atoi(value));
    } else if (name == "--path") {
      options.path = value;
    } else if (name == "--method") {
      options.method = value;
    } else if (name == "--header") {
      options.headers.emplace_back(value);
    } else if (name == "--body") {
      options.body = value;
    } else if (name == "--rate") {
      options.rate = std::atof(value);
    } else if (name == "--connections") {
      options.connections = std::atoi(value);
    } else if (name == "--duration") {
      options.duration_s = std::atof(value);
    } else if (name == "--warmup") {
      options.warmup_s = std::atof(value);
    } else {
      usage("unknown option");
    }
  }
  if (options.port == 0 || options.rate <= 0 || options.connections <= 0 ||
      options.duration_s <= 0 || options.warmup_s < 0) {
    usage("--port, a positive --rate, --connections and --duration are required");
  }
  return options;
}

std::string request_bytes(const Options& options) {
  std::string out = options.method + " " + options.path +
                    " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(options.port) + "\r\n";
  for (const std::string& header : options.headers) out += header + "\r\n";
  if (!options.body.empty() || options.method == "POST" || options.method == "PUT") {
    out += "Content-Length: " + std::to_string(options.body.size()) + "\r\n";
  }
  out += "\r\n" + options.body;
  return out;
}

[[noreturn]] void die(const char* what) {
  std::perror(what);
  std::exit(1);
}

int connect_to(uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) die("socket");
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    die("connect");
  }
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

struct Connection {
  int fd = -1;
  uint64_t sent = 0;  // requests this connection has sent
  bool in_flight = false;
  Clock::time_point due{};  // when the request in flight was due
  rift::bench::ResponseFramer framer;
};

uint64_t percentile(const std::vector<uint64_t>& sorted, double p) {
  if (sorted.empty()) return 0;
  const size_t rank = static_cast<size_t>(p * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(rank, sorted.size() - 1)];
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv);
  const std::string request = request_bytes(options);
  const int poller = ::epoll_create1(0);
  if (poller < 0) die("epoll_create1");
  std::vector<Connection> connections(static_cast<size_t>(options.connections));
  for (size_t i = 0; i < connections.size(); ++i) {
    connections[i].fd = connect_to(options.port);
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.u64 = i;
    if (::epoll_ctl(poller, EPOLL_CTL_ADD, connections[i].fd, &event) != 0) die("epoll_ctl");
  }

  const auto interval = Nanos(static_cast<int64_t>(1e9 / options.rate));
  const auto count = static_cast<int64_t>(connections.size());
  const Clock::time_point start = Clock::now();
  const Clock::time_point measured_from =
      start + Nanos(static_cast<int64_t>(options.warmup_s * 1e9));
  const Clock::time_point end =
      measured_from + Nanos(static_cast<int64_t>(options.duration_s * 1e9));
  auto due_of = [&](size_t index) {
    return start + interval * (static_cast<int64_t>(connections[index].sent) * count +
                               static_cast<int64_t>(index));
  };

  std::vector<uint64_t> latencies_ns;
  latencies_ns.reserve(static_cast<size_t>(options.rate * options.duration_s * 1.1));
  uint64_t non2xx = 0;
  uint64_t late_starts = 0;  // sends that left more than one interval after they were due
  std::array<epoll_event, 256> ready{};
  std::array<char, 64 * 1024> buffer{};
  for (;;) {
    const Clock::time_point now = Clock::now();
    bool pending = false;
    Clock::time_point next_due = Clock::time_point::max();
    for (size_t i = 0; i < connections.size(); ++i) {
      Connection& connection = connections[i];
      if (connection.in_flight) {
        pending = true;
        continue;
      }
      const Clock::time_point due = due_of(i);
      if (due >= end) continue;
      if (due > now) {
        next_due = std::min(next_due, due);
        continue;
      }
      if (now - due > interval) ++late_starts;
      if (::send(connection.fd, request.data(), request.size(), MSG_NOSIGNAL) !=
          static_cast<ssize_t>(request.size())) {
        die("send");
      }
      connection.in_flight = true;
      connection.due = due;
      ++connection.sent;
      pending = true;
    }
    if (!pending && next_due == Clock::time_point::max()) break;
    // Sleep in epoll only when the next request is far off; spin otherwise, so sends leave on
    // time (this tool owns its core).
    const int timeout_ms = next_due - Clock::now() > std::chrono::milliseconds(2) ? 1 : 0;
    const int events =
        ::epoll_wait(poller, ready.data(), static_cast<int>(ready.size()), timeout_ms);
    if (events < 0 && errno != EINTR) die("epoll_wait");
    for (int e = 0; e < events; ++e) {
      Connection& connection = connections[ready[e].data.u64];
      const ssize_t got = ::recv(connection.fd, buffer.data(), buffer.size(), 0);
      if (got <= 0) {
        std::fprintf(stderr, "rift_open_loop: the server closed a connection\n");
        return 1;
      }
      const Clock::time_point arrived = Clock::now();
      for (const int status :
           connection.framer.feed(std::string_view(buffer.data(), static_cast<size_t>(got)))) {
        if (status < 0) {
          std::fprintf(stderr, "rift_open_loop: cannot frame the response (%s)\n",
                       connection.framer.error().c_str());
          return 1;
        }
        if (!connection.in_flight) continue;  // an answer nobody asked for: ignore it
        connection.in_flight = false;
        if (connection.due < measured_from) continue;
        if (status < 200 || status > 299) ++non2xx;
        latencies_ns.push_back(static_cast<uint64_t>(
            std::chrono::duration_cast<Nanos>(arrived - connection.due).count()));
      }
    }
  }
  std::sort(latencies_ns.begin(), latencies_ns.end());
  auto us = [](uint64_t ns) { return static_cast<double>(ns) / 1000.0; };
  std::printf(
      "{\"requests\": %zu, \"rate\": %.1f, \"p50_us\": %.1f, \"p90_us\": %.1f, \"p99_us\": %.1f, "
      "\"p999_us\": %.1f, \"max_us\": %.1f, \"non2xx\": %llu, \"late_starts\": %llu}\n",
      latencies_ns.size(), static_cast<double>(latencies_ns.size()) / options.duration_s,
      us(percentile(latencies_ns, 0.50)), us(percentile(latencies_ns, 0.90)),
      us(percentile(latencies_ns, 0.99)), us(percentile(latencies_ns, 0.999)),
      us(latencies_ns.empty() ? 0 : latencies_ns.back()), static_cast<unsigned long long>(non2xx),
      static_cast<unsigned long long>(late_starts));
  return 0;
}
