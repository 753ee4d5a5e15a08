// A closed-loop load generator for tcp imposters (wrk speaks only HTTP): each of --connections
// connections sends a fixed payload, reads until it holds as many bytes as the expected reply,
// checks them, and sends again. A tcp imposter has no framing of its own (Mountebank answers
// each packet it reads), so knowing the reply's length is what tells a reply complete; with one
// request in flight per connection no two requests share a packet.
//
//   rift_tcp_load --port 4545 --send $'req-99\n' --expect $'resp-99\n'
//                 [--host 127.0.0.1] [--connections 64] [--duration 5] [--warmup 1]
//                 [--timeout 10] [--send-base64 B64] [--expect-base64 B64]
//
// Prints one JSON line: {"requests", "seconds", "rps", "mismatches", "timeouts", "closed",
// "p50_us", "p90_us", "p99_us", "p999_us", "max_us"}. requests, rps and the latencies count the
// replies completed in the measured --duration after --warmup; mismatches (replies whose bytes
// differ from --expect), timeouts (no full reply within --timeout) and closed (the server
// closed or reset a connection) count the whole run, warm-up included; each of the last two
// costs that connection a reconnect. Latency runs from the send to the reply's last byte.
// Exit status 0 whenever the run finished: the caller judges the counts.
#include <fcntl.h>
#include <netdb.h>
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
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/base64.h"

namespace {

using Clock = std::chrono::steady_clock;
using Nanos = std::chrono::nanoseconds;

struct Options {
  std::string host = "127.0.0.1";
  std::string port;
  std::string send;
  std::string expect;
  int connections = 64;
  double duration_s = 5;
  double warmup_s = 1;
  double timeout_s = 10;
};

[[noreturn]] void usage(const char* problem) {
  std::fprintf(stderr,
               "rift_tcp_load: %s\nusage: rift_tcp_load --port P (--send TEXT | --send-base64 B64) "
               "(--expect TEXT | --expect-base64 B64) [--host H] [--connections C] [--duration S] "
               "[--warmup S] [--timeout S]\n",
               problem);
  std::exit(2);
}

// Decoded as Node (and so an imposter) decodes it; empty means it held no base64 at all.
std::string decoded(const char* value, const char* option) {
  std::string bytes = rift::base64_decode_lenient(value);
  if (bytes.empty()) usage(option);
  return bytes;
}

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view name = argv[i];
    if (i + 1 >= argc) usage("every option takes a value");
    const char* value = argv[++i];
    if (name == "--host") {
      options.host = value;
    } else if (name == "--port") {
      options.port = value;
    } else if (name == "--send") {
      options.send = value;
    } else if (name == "--send-base64") {
      options.send = decoded(value, "--send-base64 is not base64");
    } else if (name == "--expect") {
      options.expect = value;
    } else if (name == "--expect-base64") {
      options.expect = decoded(value, "--expect-base64 is not base64");
    } else if (name == "--connections") {
      options.connections = std::atoi(value);
    } else if (name == "--duration") {
      options.duration_s = std::atof(value);
    } else if (name == "--warmup") {
      options.warmup_s = std::atof(value);
    } else if (name == "--timeout") {
      options.timeout_s = std::atof(value);
    } else {
      usage("unknown option");
    }
  }
  // An empty reply could never be told complete, and an empty send is no request.
  if (options.port.empty() || options.send.empty() || options.expect.empty()) {
    usage("--port, a non-empty payload to send and a non-empty expected reply are required");
  }
  if (options.connections <= 0 || options.duration_s <= 0 || options.warmup_s < 0 ||
      options.timeout_s <= 0) {
    usage("--connections, --duration and --timeout must be positive, --warmup not negative");
  }
  return options;
}

[[noreturn]] void die(const char* what) {
  std::perror(what);
  std::exit(1);
}

struct AddressInfoDeleter {
  void operator()(addrinfo* info) const { ::freeaddrinfo(info); }
};
using Address = std::unique_ptr<addrinfo, AddressInfoDeleter>;

Address resolve(const Options& options) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const int error = ::getaddrinfo(options.host.c_str(), options.port.c_str(), &hints, &found);
  if (error != 0) {
    std::fprintf(stderr, "rift_tcp_load: %s:%s: %s\n", options.host.c_str(), options.port.c_str(),
                 ::gai_strerror(error));
    std::exit(1);
  }
  return Address(found);
}

// Blocking connect (loopback: immediate), then non-blocking for the event loop.
int connect_to(const addrinfo& address) {
  const int fd = ::socket(address.ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) die("socket");
  if (::connect(fd, address.ai_addr, address.ai_addrlen) != 0) die("connect");
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK) != 0) die("fcntl");
  return fd;
}

struct Connection {
  int fd = -1;
  size_t written = 0;   // bytes of the request sent so far
  size_t received = 0;  // bytes of the reply read so far
  bool mismatch = false;
  bool waiting_to_write = false;  // EPOLLOUT armed: the socket's buffer was full
  Clock::time_point started{};
};

uint64_t percentile(const std::vector<uint64_t>& sorted, double p) {
  if (sorted.empty()) return 0;
  const size_t rank = static_cast<size_t>(p * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(rank, sorted.size() - 1)];
}

class Load {
 public:
  Load(const Options& options, Address address)
      : options_(options), address_(std::move(address)), poller_(::epoll_create1(EPOLL_CLOEXEC)) {
    if (poller_ < 0) die("epoll_create1");
    connections_.resize(static_cast<size_t>(options.connections));
  }
  Load(const Load&) = delete;
  Load& operator=(const Load&) = delete;
  ~Load() {
    for (const Connection& connection : connections_) {
      if (connection.fd >= 0) ::close(connection.fd);
    }
    ::close(poller_);
  }

  void run() {
    for (size_t i = 0; i < connections_.size(); ++i) open(i);
    const Clock::time_point start = Clock::now();
    measured_from_ = start + Nanos(static_cast<int64_t>(options_.warmup_s * 1e9));
    const Clock::time_point end =
        measured_from_ + Nanos(static_cast<int64_t>(options_.duration_s * 1e9));
    const auto timeout = Nanos(static_cast<int64_t>(options_.timeout_s * 1e9));
    latencies_ns_.reserve(1 << 20);
    for (size_t i = 0; i < connections_.size(); ++i) begin(i, start);
    Clock::time_point next_sweep = start + std::chrono::milliseconds(100);
    std::array<epoll_event, 256> ready{};
    for (;;) {
      const int events = ::epoll_wait(poller_, ready.data(), static_cast<int>(ready.size()), 50);
      if (events < 0 && errno != EINTR) die("epoll_wait");
      for (int e = 0; e < events; ++e) {
        const size_t index = ready[e].data.u64;
        if (ready[e].events & EPOLLOUT) write_some(index);
        if (ready[e].events & (EPOLLIN | EPOLLERR | EPOLLHUP)) read_some(index, end);
      }
      const Clock::time_point now = Clock::now();
      if (now >= end) {
        finished_ = now;
        return;
      }
      // A reply that never comes (a stub that answers nothing) would stall its connection for
      // good in a closed loop: give it up and start over on a new connection.
      if (now >= next_sweep) {
        next_sweep = now + std::chrono::milliseconds(100);
        for (size_t i = 0; i < connections_.size(); ++i) {
          if (now - connections_[i].started > timeout) {
            ++timeouts_;
            restart(i, now);
          }
        }
      }
    }
  }

  void report() {
    std::sort(latencies_ns_.begin(), latencies_ns_.end());
    const double seconds = std::chrono::duration<double>(finished_ - measured_from_).count();
    auto us = [](uint64_t ns) { return static_cast<double>(ns) / 1000.0; };
    std::printf(
        "{\"requests\": %zu, \"seconds\": %.3f, \"rps\": %.1f, \"mismatches\": %llu, "
        "\"timeouts\": %llu, \"closed\": %llu, \"p50_us\": %.1f, \"p90_us\": %.1f, "
        "\"p99_us\": %.1f, \"p999_us\": %.1f, \"max_us\": %.1f}\n",
        latencies_ns_.size(), seconds, static_cast<double>(latencies_ns_.size()) / seconds,
        static_cast<unsigned long long>(mismatches_), static_cast<unsigned long long>(timeouts_),
        static_cast<unsigned long long>(closed_), us(percentile(latencies_ns_, 0.50)),
        us(percentile(latencies_ns_, 0.90)), us(percentile(latencies_ns_, 0.99)),
        us(percentile(latencies_ns_, 0.999)), us(latencies_ns_.empty() ? 0 : latencies_ns_.back()));
  }

 private:
  void open(size_t index) {
    Connection& connection = connections_[index];
    connection.fd = connect_to(*address_);
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.u64 = index;
    if (::epoll_ctl(poller_, EPOLL_CTL_ADD, connection.fd, &event) != 0) die("epoll_ctl");
  }

  void arm_write(size_t index, bool on) {
    Connection& connection = connections_[index];
    if (connection.waiting_to_write == on) return;
    connection.waiting_to_write = on;
    epoll_event event{};
    event.events = EPOLLIN | (on ? EPOLLOUT : 0u);
    event.data.u64 = index;
    if (::epoll_ctl(poller_, EPOLL_CTL_MOD, connection.fd, &event) != 0) die("epoll_ctl");
  }

  void begin(size_t index, Clock::time_point now) {
    Connection& connection = connections_[index];
    connection.written = 0;
    connection.received = 0;
    connection.mismatch = false;
    connection.started = now;
    write_some(index);
  }

  void write_some(size_t index) {
    Connection& connection = connections_[index];
    const std::string& request = options_.send;
    while (connection.written < request.size()) {
      const ssize_t sent = ::send(connection.fd, request.data() + connection.written,
                                  request.size() - connection.written, MSG_NOSIGNAL);
      if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
      if (sent < 0 && errno == EINTR) continue;
      if (sent <= 0) {
        ++closed_;
        restart(index, Clock::now());
        return;
      }
      connection.written += static_cast<size_t>(sent);
    }
    arm_write(index, connection.written < request.size());
  }

  void read_some(size_t index, Clock::time_point end) {
    Connection& connection = connections_[index];
    const std::string& expected = options_.expect;
    // Never read past the expected reply: extra bytes stay in the socket and show up as the
    // next reply's mismatch instead of being silently swallowed.
    const size_t want = std::min(buffer_.size(), expected.size() - connection.received);
    const ssize_t got = ::recv(connection.fd, buffer_.data(), want, 0);
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
    if (got <= 0) {
      ++closed_;
      restart(index, Clock::now());
      return;
    }
    const auto size = static_cast<size_t>(got);
    if (std::memcmp(buffer_.data(), expected.data() + connection.received, size) != 0) {
      connection.mismatch = true;
    }
    connection.received += size;
    if (connection.received < expected.size()) return;
    const Clock::time_point now = Clock::now();
    if (connection.mismatch) ++mismatches_;
    if (now >= measured_from_ && now < end) {
      latencies_ns_.push_back(static_cast<uint64_t>(
          std::chrono::duration_cast<Nanos>(now - connection.started).count()));
    }
    begin(index, now);
  }

  void restart(size_t index, Clock::time_point now) {
    Connection& connection = connections_[index];
    ::close(connection.fd);  // also takes it out of the epoll set
    connection.waiting_to_write = false;
    open(index);
    begin(index, now);
  }

  const Options& options_;
  Address address_;
  int poller_;
  std::vector<Connection> connections_;
  std::vector<uint64_t> latencies_ns_;
  std::array<char, 64 * 1024> buffer_{};
  Clock::time_point measured_from_{};
  Clock::time_point finished_{};
  uint64_t mismatches_ = 0;
  uint64_t timeouts_ = 0;
  uint64_t closed_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv);
  Load load(options, resolve(options));
  load.run();
  load.report();
  return 0;
}
