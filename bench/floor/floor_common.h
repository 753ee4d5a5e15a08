// What the two floor servers share: the listening socket, the fixed answer and the counter of
// requests in a byte stream. The floors are measuring sticks, not servers: they answer every
// request that ends with a blank line (no bodies) with the same 200, so bench/floor.py can show
// what a read and a write per request cost on this machine, and what batching them saves.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace rift::floor {

// Shaped like nginx's `return 200 "OK"` so the bytes on the wire match the anchor's.
constexpr std::string_view kAnswer =
    "HTTP/1.1 200 OK\r\nServer: floor\r\nDate: Thu, 03 Dec 2026 00:00:00 GMT\r\n"
    "Content-Type: text/plain\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nOK";

// Counts "\r\n\r\n" across reads; a request may be split anywhere by TCP.
class BlankLineCounter {
 public:
  size_t feed(const char* data, size_t size) {
    size_t requests = 0;
    for (size_t i = 0; i < size; ++i) {
      const char c = data[i];
      if (c == kEnd[matched_]) {
        if (++matched_ == kEnd.size()) {
          ++requests;
          matched_ = 0;
        }
      } else {
        matched_ = c == '\r' ? 1 : 0;
      }
    }
    return requests;
  }

 private:
  static constexpr std::string_view kEnd = "\r\n\r\n";
  size_t matched_ = 0;
};

inline void append_answers(std::string& out, size_t requests) {
  out.clear();
  for (size_t i = 0; i < requests; ++i) out.append(kAnswer);
}

inline uint16_t port_argument(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s PORT\n", argv[0]);
    std::exit(2);
  }
  return static_cast<uint16_t>(std::atoi(argv[1]));
}

[[noreturn]] inline void die(const char* what) {
  std::perror(what);
  std::exit(1);
}

// 127.0.0.1:port, as the nginx anchor listens.
inline int listen_on(uint16_t port, int extra_flags) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | extra_flags, 0);
  if (fd < 0) die("socket");
  const int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) die("bind");
  if (::listen(fd, 4096) != 0) die("listen");
  return fd;
}

inline void set_no_delay(int fd) {
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

}  // namespace rift::floor
