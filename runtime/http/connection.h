// One client connection: reads, frames with RequestParser, hands each message to the handler
// and writes its reply, strictly one request at a time (which is what keeps pipelined replies
// in order). Lives on its listener's worker thread.
#pragma once

#include <array>
#include <boost/asio/ip/tcp.hpp>
#include <memory>
#include <string>
#include <string_view>

#include "runtime/http/asio_types.h"
#include "runtime/http/listener.h"
#include "runtime/http/message.h"
#include "runtime/http/parser.h"

namespace rift::http {

class Connection : public ConnectionHook, public std::enable_shared_from_this<Connection> {
 public:
  Connection(Socket socket, std::shared_ptr<Listener> listener);

  void start();
  // Drops the connection now (its listener is closing). Pending operations finish as aborted.
  void abort();

 private:
  static constexpr size_t kReadBufferBytes = 16 * 1024;

  void read();
  void process();
  void dispatch();
  void on_reply(Reply reply);
  void write_reply();
  void write_continue();
  void send_error(int status);
  void linger_close();
  void drain();
  void reset();
  void close();

  Socket socket_;
  std::shared_ptr<Listener> listener_;
  RequestParser parser_;
  Timer timer_;
  std::string remote_address_;
  uint16_t remote_port_ = 0;
  std::string out_;
  // Bytes [begin_, end_) of buffer_ are read but not parsed yet (the tail of a pipeline).
  size_t begin_ = 0;
  size_t end_ = 0;
  bool awaiting_reply_ = false;
  bool close_after_write_ = false;
  bool closed_ = false;
  std::array<char, kReadBufferBytes> buffer_;
};

}  // namespace rift::http
