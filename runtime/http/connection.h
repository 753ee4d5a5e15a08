// One client connection: reads, frames with RequestParser, hands each message to the handler
// and writes its reply, strictly one request at a time (which is what keeps pipelined replies
// in order). Replies the handler gives at once are gathered, so every request that arrived in
// one read is answered with one write; a plain socket tries that write at once and only waits
// for the loop when the kernel cannot take it all. Lives on its listener's worker thread.
//
// Templated on the stream so plain HTTP pays nothing for TLS: Connection<Socket> reads and
// writes the socket directly, Connection<TlsStream> (https) handshakes first and goes through
// OpenSSL. Both are instantiated in connection.cpp.
#pragma once

#include <array>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "runtime/http/asio_types.h"
#include "runtime/http/h2_connection.h"
#include "runtime/http/listener.h"
#include "runtime/http/message.h"
#include "runtime/http/parser.h"
#include "runtime/http/tls_context.h"
#include "runtime/http/tunnel_terminator.h"

namespace rift::http {

template <typename Stream>
class Connection final : public TrackedConnection,
                         public ReplySink,
                         public ChunkSink,
                         public std::enable_shared_from_this<Connection<Stream>> {
 public:
  Connection(Stream stream, std::shared_ptr<Listener> listener, BudgetPlace place = {});

  void start();
  void retire() override;
  void expire(std::chrono::steady_clock::time_point now) override;

 private:
  static constexpr size_t kReadBufferBytes = 16 * 1024;
  // out_ keeps its capacity between writes (no allocation per reply) unless a reply made it
  // larger than this, so one huge body does not pin memory for the connection's lifetime.
  static constexpr size_t kKeptWriteBufferBytes = 64 * 1024;
  static constexpr bool kTls = !std::is_same_v<Stream, Socket>;

  // The TCP socket under the stream (the stream itself for plain HTTP).
  auto& socket() { return stream_.lowest_layer(); }

  // What to do once out_ is on the wire: read more, go on parsing after `100 Continue`, parse
  // the next request after a delayed reply, close, reset, or wait out a delayed reply.
  // the next chunk of a stream.
  // `hand_over`: the CONNECT answer is out; the tunnel's TLS starts on a connection of its own.
  enum class Then { read, resume, next, linger, reset, wait, stream, hand_over };

  // What the connection waits for, for the timeouts of Limits: `fresh` (open, nothing read yet)
  // and `request` (part of a request read) run the headers and request timeouts from `since_`,
  // `idle` (between kept-alive requests) the keep-alive timeout, `busy` none (the server is
  // answering, handshaking or closing).
  enum class Phase : uint8_t { fresh, request, idle, busy };

  void read();
  void process();
  bool dispatch();
  bool tunnel();
  void hand_over();
  // HTTP/2 from the first bytes (the client's preface), or from an Upgrade request: true when the
  // connection is now an H2Connection's.
  bool preface_read(size_t size);
  bool upgrade_to_h2();
  void hand_over_h2(std::string_view preamble, std::string_view received,
                    std::optional<H2Upgrade> upgrade);
  void on_reply(Reply reply) override;
  void write_chunk(std::string_view data) override;
  bool busy() const override { return !out_.empty(); }
  void clear_written();
  bool settle();
  void flush(Then then);
  void flushed();
  void send_error(int status);
  void linger_close();
  void drain();
  void reset();
  void close();
  void time_out();

  Stream stream_;
  std::shared_ptr<Listener> listener_;
  BudgetPlace place_;
  RequestParser parser_;
  Timer timer_;
  std::string remote_address_;
  uint16_t remote_port_ = 0;
  // Replies not written yet, in request order.
  std::string out_;
  // A reply with a delay: written on its own once the replies before it are out and it is due.
  std::string delayed_;
  std::chrono::milliseconds delay_{0};
  Then then_ = Then::read;
  Phase phase_ = Phase::busy;
  std::chrono::steady_clock::time_point since_;
  // Bytes [begin_, end_) of buffer_ are read but not parsed yet (the tail of a pipeline).
  size_t begin_ = 0;
  size_t end_ = 0;
  bool awaiting_reply_ = false;
  // Set while the handler runs: a reply given before it returns is settled by process()'s loop.
  bool in_dispatch_ = false;
  bool reset_requested_ = false;
  bool close_after_write_ = false;
  bool closed_ = false;
  bool retiring_ = false;
  uint8_t method_slot_ = 0;   // the request in flight's, for the answer counters
  std::string other_method_;  // its method, when it has no slot of its own
  std::string tunnel_host_;   // a terminated CONNECT's target host, until hand_over()
  // A streaming reply's producer (Reply::stream), from its head on; told when the client goes.
  std::shared_ptr<StreamProducer> producer_;
  bool stream_open_ = false;
  std::array<char, kReadBufferBytes> buffer_;
};

extern template class Connection<Socket>;
extern template class Connection<TlsStream>;

}  // namespace rift::http
