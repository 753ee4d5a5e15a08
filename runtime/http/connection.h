// One client connection: reads, frames with RequestParser, hands each message to the handler
// and writes its reply, strictly one request at a time (which is what keeps pipelined replies
// in order). Lives on its listener's worker thread.
//
// Templated on the stream so plain HTTP pays nothing for TLS: Connection<Socket> reads and
// writes the socket directly, Connection<TlsStream> (https) handshakes first and goes through
// OpenSSL. Both are instantiated in connection.cpp.
#pragma once

#include <array>
#include <boost/asio/ip/tcp.hpp>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>

#include "runtime/http/asio_types.h"
#include "runtime/http/listener.h"
#include "runtime/http/message.h"
#include "runtime/http/parser.h"
#include "runtime/http/tls_context.h"

namespace rift::http {

template <typename Stream>
class Connection final : public TrackedConnection,
                         public std::enable_shared_from_this<Connection<Stream>> {
 public:
  Connection(Stream stream, std::shared_ptr<Listener> listener);

  void start();
  // Drops the connection now (its listener is closing). Pending operations finish as aborted.
  void abort() override;

 private:
  static constexpr size_t kReadBufferBytes = 16 * 1024;
  static constexpr bool kTls = !std::is_same_v<Stream, Socket>;

  // The TCP socket under the stream (the stream itself for plain HTTP).
  auto& socket() { return stream_.lowest_layer(); }

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

  Stream stream_;
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

extern template class Connection<Socket>;
extern template class Connection<TlsStream>;

}  // namespace rift::http
