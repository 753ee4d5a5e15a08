#include "runtime/http/connection.h"

#include <openssl/ssl.h>

#include <boost/asio/post.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <cstring>

#include "compiler/ascii.h"
#include "compiler/base64.h"
#include "runtime/http/url_path.h"

namespace rift::http {

namespace asio = boost::asio;
using asio::ip::tcp;
using boost::system::error_code;

namespace {

constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";

// `token` in a comma-separated header value ("websocket, h2c"), without regard to case.
bool has_token(std::string_view list, std::string_view token) {
  while (!list.empty()) {
    const size_t comma = list.find(',');
    std::string_view item = list.substr(0, comma);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (ascii::iequals(item, token)) return true;
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return false;
}

std::string_view error_response(int status) {
  switch (status) {
    case 408:
      return "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n";
    case 413:
      return "HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n";
    case 431:
      return "HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n";
    case 500:
      return "HTTP/1.1 500 Internal Server Error\r\nConnection: close\r\n\r\n";
    default:
      return "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n";
  }
}

// After an error reply the client may still be sending (a 413 body, say). Closing with unread
// data makes the kernel send RST, which can destroy the reply before the client reads it, so
// the connection drains for a while before closing.
constexpr auto kLingerTime = std::chrono::seconds(2);

}  // namespace

template <typename Stream>
Connection<Stream>::Connection(Stream stream, std::shared_ptr<Listener> listener, BudgetPlace place)
    : stream_(std::move(stream)),
      listener_(std::move(listener)),
      place_(std::move(place)),
      parser_(listener_->limits()),
      timer_(socket().get_executor()) {}

template <typename Stream>
void Connection<Stream>::start() {
  error_code error;
  socket().set_option(tcp::no_delay(true), error);
  if constexpr (!kTls) socket().non_blocking(true, error);  // see flush()
  const tcp::endpoint remote = socket().remote_endpoint(error);
  if (error) {
    close();
    return;
  }
  remote_address_ = remote.address().to_string();
  remote_port_ = remote.port();
  if constexpr (kTls) {
    // A failed handshake (no client certificate when one is required, no shared cipher, not
    // TLS at all) has already sent its alert when this completes; there is nothing to answer.
    timer_.expires_after(listener_->limits().tls_handshake_timeout);
    timer_.async_wait([self = this->shared_from_this()](error_code error) {
      if (!error && !self->closed_) self->close();  // the handshake completes with an error
    });
    stream_.async_handshake(asio::ssl::stream_base::server, [self = this->shared_from_this()](
                                                                error_code handshake_error) {
      if (self->closed_) return;
      self->timer_.cancel();
      if (handshake_error) {
        self->close();
        return;
      }
      if (self->listener_->limits().http2) {
        const unsigned char* protocol = nullptr;
        unsigned int length = 0;
        SSL_get0_alpn_selected(self->stream_.native_handle(), &protocol, &length);
        if (length == 2 && std::memcmp(protocol, "h2", 2) == 0) {
          self->hand_over_h2({}, {}, std::nullopt);
          return;
        }
      }
      self->phase_ = Phase::fresh;
      self->since_ = self->listener_->now();
      self->read();
    });
  } else {
    phase_ = Phase::fresh;
    since_ = listener_->now();
    read();
  }
}

template <typename Stream>
void Connection<Stream>::retire() {
  if (closed_) return;
  retiring_ = true;
  if (producer_) {  // a stream never finishes by itself
    close();
    return;
  }
  // Waiting for the client (or its handshake): nothing is owed, so close now. Otherwise read()
  // closes once the reply in flight is out.
  if (phase_ == Phase::idle || phase_ == Phase::fresh) close();
}

template <typename Stream>
void Connection<Stream>::expire(std::chrono::steady_clock::time_point now) {
  if (closed_) return;
  const Limits& limits = listener_->limits();
  // since_ is a sweep's time, up to one interval before the phase began: so the wait is counted
  // short, and a timeout fires up to two intervals late, never early.
  const auto waited = now - since_ - Listener::kSweepInterval;
  switch (phase_) {
    case Phase::fresh:
    case Phase::request:
      if (!parser_.headers_done() && waited >= limits.headers_timeout) {
        time_out();
      } else if (waited >= limits.request_timeout) {
        time_out();
      }
      return;
    case Phase::idle:
      if (waited >= limits.keep_alive_timeout) close();
      return;
    case Phase::busy:
      return;
  }
}

// Node's answer to a request that took too long: 408, then the connection closes. A connection
// that never sent a byte just closes (there is no request to answer).
template <typename Stream>
void Connection<Stream>::time_out() {
  if constexpr (!kTls) {
    if (phase_ == Phase::request) {
      // A read is pending, so nothing asynchronous may start; the 408 is tiny and goes straight
      // into the socket's empty send buffer (nothing else is being written in this phase).
      error_code ignored;
      stream_.write_some(asio::buffer(error_response(408)), ignored);
    }
  }
  close();
}

template <typename Stream>
void Connection<Stream>::close() {
  closed_ = true;
  unlink();
  timer_.cancel();
  error_code ignored;
  socket().close(ignored);
  if (auto producer = std::move(producer_)) producer->closed();
}

template <typename Stream>
void Connection<Stream>::reset() {
  error_code ignored;
  socket().set_option(asio::socket_base::linger(true, 0), ignored);
  close();
}

template <typename Stream>
void Connection<Stream>::read() {
  if (phase_ == Phase::busy) {  // a reply is out: the connection waits for the client again
    phase_ = parser_.in_message() ? Phase::request : Phase::idle;
    since_ = listener_->now();
  }
  if (retiring_ && (phase_ == Phase::idle || phase_ == Phase::fresh)) {
    phase_ = Phase::busy;
    linger_close();  // FIN after the last reply; the client's own close ends it
    return;
  }
  stream_.async_read_some(asio::buffer(buffer_),
                          [self = this->shared_from_this()](error_code error, size_t size) {
                            if (self->closed_) return;
                            if (error) {
                              // EOF or a reset, idle or mid-request: nothing to answer.
                              self->close();
                              return;
                            }
                            if (self->phase_ == Phase::fresh && self->preface_read(size)) return;
                            self->begin_ = 0;
                            self->end_ = size;
                            if (self->phase_ != Phase::request) {
                              self->phase_ = Phase::request;
                              self->since_ = self->listener_->now();
                            }
                            self->process();
                          });
}

template <typename Stream>
void Connection<Stream>::process() {
  while (begin_ < end_) {
    const auto [status, consumed] = parser_.feed(buffer_.data() + begin_, end_ - begin_);
    begin_ += consumed;
    switch (status) {
      case RequestParser::Status::need_more:
        break;
      case RequestParser::Status::expect_continue:
        parser_.next();
        out_.append(kContinue);
        flush(Then::resume);
        return;
      case RequestParser::Status::message:
        if (parser_.message().method == "CONNECT") {
          if (!tunnel()) return;
          break;
        }
        if (!dispatch() || !settle()) return;
        break;
      case RequestParser::Status::error:
        send_error(parser_.error_status());
        return;
    }
  }
  if (out_.empty()) {
    read();
  } else {
    flush(Then::read);
  }
}

// A CONNECT request (its target in authority form, RFC 9112 §3.2.3). The intercept proxy
// terminates the tunnel's TLS itself (hand_over()). On a plain listener that tunnels to itself
// the bytes after it are just this connection's next requests, so the tunnel is the connection
// itself. TLS inside TLS is not served: closed, as everywhere else.
template <typename Stream>
bool Connection<Stream>::tunnel() {
  if constexpr (!kTls) {
    const Limits& limits = listener_->limits();
    if (limits.terminate_tunnels && !retiring_) {
      const std::string_view target = parser_.message().target;
      // A client starts its handshake only once it has read the answer: bytes already here
      // are not TLS, and an authority needs a host.
      if (begin_ != end_ || target.empty() || target.front() == ':' || target.front() == '/') {
        send_error(400);
        return false;
      }
      tunnel_host_ = host_of(target);
      if (tunnel_host_.size() > 2 && tunnel_host_.front() == '[') {
        tunnel_host_ = tunnel_host_.substr(1, tunnel_host_.size() - 2);
      }
      phase_ = Phase::busy;
      out_.append("HTTP/1.1 200 Connection established\r\n\r\n");
      flush(Then::hand_over);
      return false;
    }
    if (limits.connect_tunnels_to_self && !retiring_) {
      parser_.restart();
      phase_ = Phase::fresh;
      since_ = listener_->now();
      out_.append("HTTP/1.1 200 Connection established\r\n\r\n");
      return true;
    }
  }
  close();
  return false;
}

// The socket moves to a TLS connection of the same listener (tracked, timed out and retired like
// any other), which handshakes with the certificate for the CONNECT target or the client's SNI.
template <typename Stream>
void Connection<Stream>::hand_over() {
  if constexpr (!kTls) {
    TunnelTerminator& terminator = *listener_->limits().terminate_tunnels;
    TlsStream tls(std::move(stream_), terminator.context());
    closed_ = true;  // this object is done; the socket is the new connection's now
    unlink();
    timer_.cancel();
    if (!terminator.prepare(tls.native_handle(), tunnel_host_)) {
      error_code ignored;
      tls.next_layer().close(ignored);
      return;
    }
    auto next =
        std::make_shared<Connection<TlsStream>>(std::move(tls), listener_, std::move(place_));
    listener_->track(*next);
    next->start();
  }
}

// A client with prior knowledge opens with HTTP/2's preface (RFC 9113 §3.4); a prefix of it is
// enough to decide, nghttp2 checks the rest.
template <typename Stream>
bool Connection<Stream>::preface_read(size_t size) {
  static constexpr std::string_view kPreface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
  if constexpr (kTls) {
    return false;  // over TLS only ALPN chooses h2
  } else {
    if (!listener_->limits().http2 || size < 3) return false;
    const std::string_view read(buffer_.data(), size);
    if (!kPreface.starts_with(read.substr(0, std::min(read.size(), kPreface.size())))) {
      return false;
    }
    hand_over_h2({}, read, std::nullopt);
    return true;
  }
}

// `Upgrade: h2c` with its HTTP2-Settings (RFC 7540 §3.2): 101, and the request is answered as
// stream 1 of the HTTP/2 connection that follows. Anything else stays HTTP/1.1.
template <typename Stream>
bool Connection<Stream>::upgrade_to_h2() {
  Message& message = parser_.message();
  const std::string* upgrade = nullptr;
  const std::string* settings = nullptr;
  for (const auto& [name, value] : message.headers) {
    if (ascii::iequals(name, "upgrade")) upgrade = &value;
    if (ascii::iequals(name, "http2-settings")) settings = &value;
  }
  if (!upgrade || !settings || !has_token(*upgrade, "h2c")) return false;
  std::string encoded = *settings;
  for (char& c : encoded) {
    if (c == '-') c = '+';
    if (c == '_') c = '/';
  }
  H2Upgrade up{std::move(message), base64_decode_lenient(encoded)};
  const std::string_view rest(buffer_.data() + begin_, end_ - begin_);
  hand_over_h2("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n",
               rest, std::move(up));
  return true;
}

template <typename Stream>
void Connection<Stream>::hand_over_h2(std::string_view preamble, std::string_view received,
                                      std::optional<H2Upgrade> upgrade) {
  closed_ = true;  // this object is done; the stream is the HTTP/2 connection's now
  unlink();
  timer_.cancel();
  auto next = std::make_shared<H2Connection<Stream>>(
      std::move(stream_), listener_, std::move(place_), remote_address_, remote_port_);
  listener_->track(*next);
  next->start(preamble, received, std::move(upgrade));
}

// True when the handler answered before returning (the reply is in out_).
template <typename Stream>
bool Connection<Stream>::dispatch() {
  Message& message = parser_.message();
  message.remote_address = remote_address_;
  message.remote_port = remote_port_;
  message.loop = &socket().get_executor().context();
  phase_ = Phase::busy;
  awaiting_reply_ = true;
  in_dispatch_ = true;
  if constexpr (!kTls) {
    // llhttp flags an upgrade (Connection: upgrade and Upgrade, as RFC 7540 §3.2 requires of
    // h2c): the common request pays one branch, not a scan of its headers.
    if (parser_.upgrade() && listener_->limits().http2 && upgrade_to_h2()) {
      in_dispatch_ = false;
      awaiting_reply_ = false;
      return false;
    }
  }
  if (listener_->limits().answers) {
    method_slot_ = AnswerCounters::method_slot(message.method);
    if (method_slot_ == AnswerCounters::kOtherMethod) other_method_.assign(message.method);
  }
  try {
    listener_->handler()(std::move(message),
                         Respond(std::shared_ptr<ReplySink>(this->shared_from_this())));
  } catch (...) {
    // A throwing handler must not take the worker down; the client gets a 500 unless the
    // handler had already answered.
    if (awaiting_reply_) {
      awaiting_reply_ = false;
      in_dispatch_ = false;
      send_error(500);
      return false;
    }
  }
  in_dispatch_ = false;
  return !awaiting_reply_;
}

template <typename Stream>
void Connection<Stream>::on_reply(Reply reply) {
  if (!socket().get_executor().running_in_this_thread()) {
    reply.materialize();  // lent pieces live only until this call returns
    asio::post(socket().get_executor(),
               [self = this->shared_from_this(), reply = std::move(reply)]() mutable {
                 self->on_reply(std::move(reply));
               });
    return;
  }
  if (!awaiting_reply_ || closed_) return;
  awaiting_reply_ = false;
  if (const auto& answers = listener_->limits().answers; answers && !reply.reset) {
    answers->count(method_slot_, other_method_, reply_status(reply));
  }
  if (reply.reset) {
    reset_requested_ = true;
    delay_ = reply.delay;  // a latency fault before the drop
  } else if (reply.stream) {
    producer_ = std::move(reply.stream);
    reply.append_to(out_);
  } else {
    close_after_write_ = reply.close || !parser_.keep_alive() || parser_.upgrade();
    if (reply.delay.count() > 0) {
      reply.materialize();
      delayed_ = std::move(reply.bytes);
      delay_ = reply.delay;
    } else {
      reply.append_to(out_);
    }
  }
  if (in_dispatch_) return;  // process() settles it once the handler returns
  if (settle()) process();
}

// After a reply: true when the next buffered request may be parsed now; otherwise whatever
// comes first (the replies so far on the wire, a delay, a close) has been started.
template <typename Stream>
bool Connection<Stream>::settle() {
  if (producer_) {
    flush(Then::stream);
    return false;
  }
  if (reset_requested_) {
    if (delay_.count() > 0) {
      flush(Then::wait);  // the wait resets when it is over
    } else if (out_.empty()) {
      reset();
    } else {
      flush(Then::reset);
    }
    return false;
  }
  if (delay_.count() > 0) {
    flush(Then::wait);
    return false;
  }
  if (close_after_write_) {
    flush(Then::linger);
    return false;
  }
  parser_.next();
  return true;
}

template <typename Stream>
void Connection<Stream>::flush(Then then) {
  then_ = then;
  size_t written = 0;
  if constexpr (!kTls) {
    // The socket is non-blocking: a reply the kernel takes at once needs no trip through the
    // loop, which is most of what an asynchronous write would cost.
    if (!out_.empty()) {
      error_code error;
      written = stream_.write_some(asio::buffer(out_), error);
      if (error && error != asio::error::would_block) {
        close();
        return;
      }
    }
  }
  if (written == out_.size()) {
    clear_written();
    flushed();
    return;
  }
  out_.erase(0, written);
  asio::async_write(stream_, asio::buffer(out_),
                    [self = this->shared_from_this()](error_code error, size_t) {
                      if (self->closed_) return;
                      if (error) {
                        self->close();
                        return;
                      }
                      self->clear_written();
                      self->flushed();
                    });
}

template <typename Stream>
void Connection<Stream>::clear_written() {
  out_.clear();
  if (out_.capacity() > kKeptWriteBufferBytes) out_.shrink_to_fit();
}

template <typename Stream>
void Connection<Stream>::flushed() {
  switch (then_) {
    case Then::read:
      // Not at once: a client that waits for its answer has not sent the next request yet, so
      // an immediate read would only find the socket empty. Reading after the loop has served
      // the other ready connections usually finds the next request there, without epoll.
      asio::post(socket().get_executor(), [self = this->shared_from_this()]() {
        if (!self->closed_) self->read();
      });
      return;
    case Then::resume:
      // Posted: a pipeline of `Expect: 100-continue` requests must not nest calls.
      asio::post(socket().get_executor(), [self = this->shared_from_this()]() {
        if (!self->closed_) self->process();
      });
      return;
    case Then::next:
      parser_.next();
      process();
      return;
    case Then::linger:
      linger_close();
      return;
    case Then::reset:
      reset();
      return;
    case Then::hand_over:
      hand_over();
      return;
    case Then::stream:
      if (!stream_open_) {
        stream_open_ = true;
        // The client sends nothing more that matters (a pipelined request is dropped); reading
        // is how its going away is noticed.
        drain();
        producer_->open(std::static_pointer_cast<ChunkSink>(this->shared_from_this()),
                        socket().get_executor().context());
      }
      if (producer_) producer_->writable();
      return;
    case Then::wait:
      timer_.expires_after(delay_);
      delay_ = {};
      timer_.async_wait([self = this->shared_from_this()](error_code error) {
        if (error || self->closed_) return;
        if (self->reset_requested_) {
          self->reset();
          return;
        }
        self->out_ = std::move(self->delayed_);
        self->delayed_.clear();
        self->flush(self->close_after_write_ ? Then::linger : Then::next);
      });
      return;
  }
}

// One chunk of a streaming reply, in chunked framing.
template <typename Stream>
void Connection<Stream>::write_chunk(std::string_view data) {
  if (closed_ || busy() || data.empty()) return;
  static constexpr char kHex[] = "0123456789abcdef";
  char size[2 * sizeof(size_t)];
  size_t digits = 0;
  for (size_t left = data.size(); left != 0; left >>= 4) size[digits++] = kHex[left & 0xF];
  while (digits > 0) out_.push_back(size[--digits]);
  out_.append("\r\n").append(data).append("\r\n");
  flush(Then::stream);
}

template <typename Stream>
void Connection<Stream>::send_error(int status) {
  phase_ = Phase::busy;
  out_.append(error_response(status));
  flush(Then::linger);
}

template <typename Stream>
void Connection<Stream>::linger_close() {
  timer_.expires_after(kLingerTime);
  timer_.async_wait([self = this->shared_from_this()](error_code wait_error) {
    if (!wait_error && !self->closed_) self->close();
  });
  if constexpr (kTls) {
    // close_notify first, so a client reading to the end sees a clean TLS end rather than a
    // truncation; the shutdown completes when the peer answers or hangs up.
    stream_.async_shutdown([self = this->shared_from_this()](error_code) {
      if (!self->closed_) self->close();
    });
  } else {
    error_code error;
    socket().shutdown(Socket::shutdown_send, error);
    if (error) {
      close();
      return;
    }
    drain();
  }
}

template <typename Stream>
void Connection<Stream>::drain() {
  stream_.async_read_some(asio::buffer(buffer_),
                          [self = this->shared_from_this()](error_code error, size_t) {
                            if (self->closed_) return;
                            if (error) {
                              self->close();
                              return;
                            }
                            self->drain();
                          });
}

template class Connection<Socket>;
template class Connection<TlsStream>;

}  // namespace rift::http
