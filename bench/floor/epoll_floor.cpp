// The epoll floor: one thread, one recv and one send per request, epoll_wait shared by every
// connection ready at once. This is the system-call shape of Rift's Asio loop (and nginx's),
// with nothing else: no parsing beyond the blank line, no matching, no headers to build.
#include <sys/epoll.h>

#include <array>
#include <cerrno>
#include <memory>
#include <vector>

#include "bench/floor/floor_common.h"

namespace {

using namespace rift::floor;

struct Connection {
  BlankLineCounter counter;
  std::string out;
};

}  // namespace

int main(int argc, char** argv) {
  const int listener = listen_on(port_argument(argc, argv), SOCK_NONBLOCK);
  const int poller = ::epoll_create1(0);
  if (poller < 0) die("epoll_create1");
  epoll_event event{};
  event.events = EPOLLIN;
  event.data.fd = listener;
  if (::epoll_ctl(poller, EPOLL_CTL_ADD, listener, &event) != 0) die("epoll_ctl");

  std::vector<std::unique_ptr<Connection>> connections;  // by file descriptor
  std::array<epoll_event, 256> ready{};
  std::array<char, 16 * 1024> in{};
  for (;;) {
    const int count = ::epoll_wait(poller, ready.data(), static_cast<int>(ready.size()), -1);
    if (count < 0 && errno != EINTR) die("epoll_wait");
    for (int i = 0; i < count; ++i) {
      const int fd = ready[i].data.fd;
      if (fd == listener) {
        for (int client; (client = ::accept4(listener, nullptr, nullptr, SOCK_NONBLOCK)) >= 0;) {
          set_no_delay(client);
          if (connections.size() <= static_cast<size_t>(client)) connections.resize(client + 1);
          connections[client] = std::make_unique<Connection>();
          event.events = EPOLLIN;
          event.data.fd = client;
          ::epoll_ctl(poller, EPOLL_CTL_ADD, client, &event);
        }
        continue;
      }
      Connection& connection = *connections[fd];
      const ssize_t got = ::recv(fd, in.data(), in.size(), 0);
      if (got < 0 && errno == EAGAIN) continue;
      if (got <= 0) {
        ::close(fd);  // also leaves the epoll set
        connections[fd].reset();
        continue;
      }
      const size_t requests = connection.counter.feed(in.data(), static_cast<size_t>(got));
      if (requests == 0) continue;
      append_answers(connection.out, requests);
      // Small answers to a client that waits for them always fit the socket buffer.
      if (::send(fd, connection.out.data(), connection.out.size(), MSG_NOSIGNAL) !=
          static_cast<ssize_t>(connection.out.size())) {
        ::close(fd);
        connections[fd].reset();
      }
    }
  }
}
