// The io_uring floor: the same answers as epoll_floor.cpp, but every recv and send goes through
// one ring, so a whole batch of ready connections costs one io_uring_enter instead of a recv and
// a send each. Each answer's send is linked to the connection's next recv (IOSQE_IO_LINK), and a
// successful send posts no completion (IOSQE_CQE_SKIP_SUCCESS): one completion per request.
#include <liburing.h>

#include <array>
#include <cerrno>
#include <memory>
#include <vector>

#include "bench/floor/floor_common.h"

namespace {

using namespace rift::floor;

enum Operation : uint64_t { kAccept = 0, kRecv = 1, kSend = 2 };

uint64_t tag(int fd, Operation operation) {
  return (static_cast<uint64_t>(fd) << 2) | operation;
}

struct Connection {
  BlankLineCounter counter;
  std::string out;
  std::array<char, 16 * 1024> in{};
};

class Ring {
 public:
  Ring() {
    io_uring_params params{};
    // One thread submits and reaps: completions are run when it asks, not by interrupts.
    params.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
    if (io_uring_queue_init_params(4096, &ring_, &params) != 0) {
      params = {};
      if (io_uring_queue_init_params(4096, &ring_, &params) != 0) die("io_uring_queue_init");
    }
  }
  ~Ring() { io_uring_queue_exit(&ring_); }
  Ring(const Ring&) = delete;
  Ring& operator=(const Ring&) = delete;

  io_uring* get() { return &ring_; }

  io_uring_sqe* sqe() {
    io_uring_sqe* entry = io_uring_get_sqe(&ring_);
    if (entry == nullptr) {  // the queue is full: hand it to the kernel and take a fresh one
      io_uring_submit(&ring_);
      entry = io_uring_get_sqe(&ring_);
    }
    return entry;
  }

 private:
  io_uring ring_{};
};

class Server {
 public:
  explicit Server(int listener) : listener_(listener) { arm_accept(); }

  [[noreturn]] void run() {
    for (;;) {
      const int waited = io_uring_submit_and_wait(ring_.get(), 1);
      if (waited < 0 && waited != -EINTR) {
        errno = -waited;
        die("io_uring_submit_and_wait");
      }
      unsigned head = 0;
      unsigned seen = 0;
      io_uring_cqe* completion = nullptr;
      io_uring_for_each_cqe(ring_.get(), head, completion) {
        complete(completion->user_data, completion->res, completion->flags);
        ++seen;
      }
      io_uring_cq_advance(ring_.get(), seen);
    }
  }

 private:
  void arm_accept() {
    io_uring_sqe* entry = ring_.sqe();
    io_uring_prep_multishot_accept(entry, listener_, nullptr, nullptr, 0);
    io_uring_sqe_set_data64(entry, tag(listener_, kAccept));
  }

  void arm_recv(int fd) {
    io_uring_sqe* entry = ring_.sqe();
    io_uring_prep_recv(entry, fd, connections_[fd]->in.data(), connections_[fd]->in.size(), 0);
    io_uring_sqe_set_data64(entry, tag(fd, kRecv));
  }

  void complete(uint64_t data, int result, uint32_t flags) {
    const int fd = static_cast<int>(data >> 2);
    switch (static_cast<Operation>(data & 3)) {
      case kAccept:
        if (result >= 0) open(result);
        if ((flags & IORING_CQE_F_MORE) == 0) arm_accept();
        return;
      case kRecv:
        if (result <= 0) {  // EOF, an error, or the linked send before it failed
          ::close(fd);
          connections_[fd].reset();
          return;
        }
        answer(fd, static_cast<size_t>(result));
        return;
      case kSend:  // only failures post a completion; the linked recv is cancelled and closes
        return;
    }
  }

  void open(int fd) {
    set_no_delay(fd);
    if (connections_.size() <= static_cast<size_t>(fd)) connections_.resize(fd + 1);
    connections_[fd] = std::make_unique<Connection>();
    arm_recv(fd);
  }

  void answer(int fd, size_t got) {
    Connection& connection = *connections_[fd];
    const size_t requests = connection.counter.feed(connection.in.data(), got);
    if (requests == 0) {
      arm_recv(fd);
      return;
    }
    append_answers(connection.out, requests);
    io_uring_sqe* send = ring_.sqe();
    io_uring_prep_send(send, fd, connection.out.data(), connection.out.size(), MSG_NOSIGNAL);
    io_uring_sqe_set_data64(send, tag(fd, kSend));
    send->flags |= IOSQE_IO_LINK | IOSQE_CQE_SKIP_SUCCESS;
    arm_recv(fd);
  }

  Ring ring_;
  int listener_;
  std::vector<std::unique_ptr<Connection>> connections_;  // by file descriptor
};

}  // namespace

int main(int argc, char** argv) {
  Server server(listen_on(port_argument(argc, argv), 0));
  server.run();
}
