// One HTTP/2 connection (RFC 9113) through nghttp2: h2c with prior knowledge or after an
// `Upgrade: h2c` request, or h2 chosen by ALPN on a TLS listener (docs/http2.md). Each stream's
// request becomes the same Message an HTTP/1 connection hands its listener's handler, and the
// handler's Reply, rendered as HTTP/1.1 like every other, is taken apart again (reply_parts.h)
// into the stream's HEADERS and DATA. So imposters, tiers, behaviors and the journal are the
// same over both protocols; only the framing differs.
//
// Streams are answered concurrently and in whatever order their replies come. Lives on its
// listener's worker thread, like Connection, which hands it the socket.
#pragma once

#include <array>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/http/asio_types.h"
#include "runtime/http/listener.h"
#include "runtime/http/message.h"
#include "runtime/http/reply_parts.h"
#include "runtime/http/tls_context.h"

typedef struct nghttp2_session nghttp2_session;

namespace rift::http {

// The HTTP/1.1 request that asked for h2c: answered as stream 1 (RFC 7540 §3.2).
struct H2Upgrade {
  Message request;
  std::string settings;  // HTTP2-Settings, base64url-decoded
};

template <typename Stream>
class H2Connection final : public TrackedConnection,
                           public std::enable_shared_from_this<H2Connection<Stream>> {
 public:
  H2Connection(Stream stream, std::shared_ptr<Listener> listener, BudgetPlace place,
               std::string remote_address, uint16_t remote_port);
  ~H2Connection();

  // `preamble` is written first (the 101 of an upgrade); `received` is what was read past the
  // HTTP/1 part (the client's preface, or its start).
  void start(std::string_view preamble, std::string_view received,
             std::optional<H2Upgrade> upgrade = std::nullopt);
  void retire() override;
  void expire(std::chrono::steady_clock::time_point now) override;

  // A stream's reply, from the stream's ReplySink (on this connection's thread).
  void answer(int32_t stream_id, Reply reply);

 private:
  struct StreamState {
    Message message;
    size_t body_limit_excess = 0;  // bytes past max_body_bytes: answered 413
    bool dispatched = false;
    bool head = false;
    uint8_t method_slot = 0;   // for the answer counters: the message is the handler's by then
    std::string other_method;  // its method, when it has no slot of its own
    ReplyParts reply;
    size_t sent = 0;  // of reply.body
    std::unique_ptr<Timer> delay;
  };

  struct Callbacks;
  friend struct Callbacks;

  void read();
  void received(const char* data, size_t size);
  void flush();
  void close();
  void dispatch(int32_t stream_id);
  void submit(int32_t stream_id, StreamState& state, Reply reply);
  void settle();  // after activity: close when retiring and idle, or when nghttp2 is done
  StreamState* stream(int32_t stream_id);

  Stream stream_;
  std::shared_ptr<Listener> listener_;
  BudgetPlace place_;
  std::string remote_address_;
  uint16_t remote_port_ = 0;
  nghttp2_session* session_ = nullptr;
  std::map<int32_t, std::unique_ptr<StreamState>> streams_;
  std::string out_;      // bytes being written
  std::string pending_;  // bytes nghttp2 produced while a write was in flight
  bool writing_ = false;
  bool in_recv_ = false;  // inside nghttp2_session_mem_recv, which must not send (not reentrant)
  bool closed_ = false;
  bool retiring_ = false;
  std::chrono::steady_clock::time_point since_;  // the last frame either way
  std::array<char, 16 * 1024> buffer_;
};

extern template class H2Connection<Socket>;
extern template class H2Connection<TlsStream>;

}  // namespace rift::http
