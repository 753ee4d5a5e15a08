// The contract between the network layer and whatever serves requests on top of it.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "compiler/request.h"
#include "runtime/http/asio_types.h"
#include "runtime/http/traffic_counters.h"

namespace rift::http {

class TunnelTerminator;
class Listener;

// One parsed HTTP request, still in wire form: the request builder turns it into rift::Request.
struct Message {
  std::string method;  // upper case
  std::string target;  // raw request-target, e.g. "/a/b?x=1"
  int version_major = 1, version_minor = 1;
  rift::KeyValues headers;     // names exactly as sent, in order, repeats kept
  std::string body;            // de-chunked, NOT decompressed
  std::string remote_address;  // "127.0.0.1", "::1", or "::ffff:a.b.c.d" on a dual-stack socket
  uint16_t remote_port = 0;
  // The worker loop the request arrived on: where a handler runs its own I/O (proxying).
  boost::asio::io_context* loop = nullptr;
  // Room for the rift::Request a handler builds from this message (http::build_request_into).
  // The connection reuses one Message for all its requests, so the strings and vectors of the
  // previous request are refilled rather than allocated again. Valid until the handler returns.
  rift::Request request;
};

// A body that goes on after the reply's head (Server-Sent Events): the connection writes the
// head, then gives the producer a sink and writes each chunk it is handed until the client goes.
class ChunkSink {
 public:
  virtual ~ChunkSink() = default;
  // Writes one chunk of the body (the connection adds the chunked framing). Call on the loop
  // open() was given, and only while !busy(): a producer keeps what comes meanwhile itself, so
  // a client that stops reading holds no more than one chunk here.
  virtual void write_chunk(std::string_view data) = 0;
  virtual bool busy() const = 0;
};

class StreamProducer {
 public:
  virtual ~StreamProducer() = default;
  // The head is on the wire. `sink` stays valid while the connection is open; every call from
  // the connection comes on `loop`.
  virtual void open(std::weak_ptr<ChunkSink> sink, boost::asio::io_context& loop) = 0;
  // The last chunk is on the wire: the sink takes another.
  virtual void writable() = 0;
  // The client went (or the server is stopping): the sink takes nothing more.
  virtual void closed() = 0;
};

struct Reply {
  std::string bytes;  // complete serialized response (or its first part, see `lent`)
  // Pre-serialized pieces written after `bytes`, not copied into it: a plan's prepared response
  // and the current Date line. They need only live until the Respond call returns (a connection
  // copies them into its write buffer at once); see materialize().
  std::array<std::string_view, 3> lent{};
  bool close = false;                  // close the connection after writing
  bool reset = false;                  // write nothing; drop the connection at once (RST)
  std::chrono::milliseconds delay{0};  // wait this long before writing (Mountebank `wait`)
  // Set: `bytes` is a head announcing a chunked body, which this producer writes from then on;
  // the connection serves no further request.
  std::shared_ptr<StreamProducer> stream;

  void append_to(std::string& out) const {
    out.append(bytes);
    for (std::string_view piece : lent) out.append(piece);
  }
  // Makes the reply own all its bytes, for whoever keeps it past the Respond call.
  void materialize() {
    for (std::string_view piece : lent) bytes.append(piece);
    lent = {};
  }
};

// Where a handler's reply goes: the connection, or any callable (tests, adapters).
class ReplySink {
 public:
  virtual ~ReplySink() = default;
  virtual void on_reply(Reply reply) = 0;
};

// Answers one request: call exactly once. Calling from a foreign thread is tolerated (the reply
// is posted to the connection's thread), but the worker thread that ran the handler is the cheap
// path. It shares ownership of its sink, so a late reply (a `wait`, a proxy, a script) still finds
// the connection; unlike a std::function holding a shared_ptr, making one allocates nothing.
class Respond {
 public:
  Respond() = default;
  explicit Respond(std::shared_ptr<ReplySink> sink) : sink_(std::move(sink)) {}
  // A callable receiving the Reply by value; the reply it gets owns its bytes (materialized).
  template <typename F>
  requires(std::is_invocable_v<F&, Reply> && !std::is_same_v<std::decay_t<F>, Respond>)
      Respond(F callable)  // NOLINT(google-explicit-constructor): lambdas stand in for a Respond
      : sink_(std::make_shared<CallableSink<F>>(std::move(callable))) {}

  // An empty Respond throws as an empty std::function did (a handler's 500, never a crash).
  void operator()(Reply reply) const {
    if (!sink_) throw std::bad_function_call();
    sink_->on_reply(std::move(reply));
  }
  explicit operator bool() const noexcept { return sink_ != nullptr; }

 private:
  template <typename F>
  struct CallableSink final : ReplySink {
    explicit CallableSink(F f) : callable(std::move(f)) {}
    void on_reply(Reply reply) override {
      reply.materialize();
      callable(std::move(reply));
    }
    F callable;
  };
  std::shared_ptr<ReplySink> sink_;
};

using Handler = std::function<void(Message&&, Respond)>;

// How many connections may be open at once, shared by the listeners given it.
struct ConnectionBudget {
  explicit ConnectionBudget(size_t capacity) : capacity(capacity) {}
  // Takes one place; false when all are taken.
  bool acquire() {
    size_t open = in_use.load(std::memory_order_relaxed);
    do {
      if (open >= capacity) return false;
    } while (!in_use.compare_exchange_weak(open, open + 1, std::memory_order_relaxed));
    return true;
  }
  void release() { in_use.fetch_sub(1, std::memory_order_relaxed); }

  const size_t capacity;
  std::atomic<size_t> in_use{0};
};

// One place taken in a ConnectionBudget, given back when the connection that holds it goes.
class BudgetPlace {
 public:
  BudgetPlace() = default;
  explicit BudgetPlace(std::shared_ptr<ConnectionBudget> budget) : budget_(std::move(budget)) {}
  BudgetPlace(BudgetPlace&&) noexcept = default;
  BudgetPlace& operator=(BudgetPlace&& other) noexcept {
    std::swap(budget_, other.budget_);  // ours, if any, is released with `other`
    return *this;
  }
  ~BudgetPlace() {
    if (budget_) budget_->release();
  }

 private:
  std::shared_ptr<ConnectionBudget> budget_;
};

struct Limits {
  size_t max_header_bytes = 64 * 1024;
  size_t max_body_bytes = 10 * 1024 * 1024;
  // An https client that has not finished its handshake by then is disconnected, so silent
  // connections cannot pile up (Node's tls.Server default, which Mountebank runs with).
  std::chrono::milliseconds tls_handshake_timeout = std::chrono::seconds(120);
  // Node's http.Server defaults (so Mountebank's): complete headers within 60 s of a request's
  // first byte (or of the connection's opening), the whole request within 300 s, and a kept-alive
  // connection idle for 5 s after a reply is closed. A slow client gets 408 and is closed; it
  // never holds a worker, which serves other connections meanwhile (docs/limits.md).
  std::chrono::milliseconds headers_timeout = std::chrono::seconds(60);
  std::chrono::milliseconds request_timeout = std::chrono::seconds(300);
  std::chrono::milliseconds keep_alive_timeout = std::chrono::seconds(5);
  // CONNECT answers "200 Connection established" and the tunnel leads back to this listener, as
  // Mountebank's imposters do (baseHttpServer.js connects to its own port). Off: the connection
  // closes without an answer, as a Node server without a 'connect' listener (the admin API).
  bool connect_tunnels_to_self = false;
  // Set: CONNECT answers "200 Connection established" and the tunnel is TLS, terminated here with
  // the certificates this names; the requests inside go to the listener's handler (the intercept
  // proxy, docs/intercept.md). Takes precedence over connect_tunnels_to_self.
  std::shared_ptr<TunnelTerminator> terminate_tunnels;
  // HTTP/2 (docs/http2.md): h2c with prior knowledge or `Upgrade: h2c` on a plain listener, h2
  // when ALPN chose it on a TLS one (the TLS context must offer it: TlsSettings::offer_h2).
  bool http2 = false;
  // Connections open at once on the listeners that share this count (every imposter's, across
  // workers); one more is closed as soon as it is accepted. Null: no cap.
  std::shared_ptr<ConnectionBudget> connections;
  // What the metrics port reports of these listeners (runtime/http/traffic_counters.h); null:
  // not counted. `answers` is set on imposters' listeners only.
  std::shared_ptr<AcceptCounters> accepts;
  std::shared_ptr<AnswerCounters> answers;
  unsigned worker_slot = 0;  // the worker this listener accepts on, set by Server::listen
  // Set: the listener speaks no HTTP; each accepted socket (a tcp or smtp imposter's,
  // runtime/tcp, runtime/smtp) is handed to this, which starts a connection of its own and
  // registers it with Listener::track so closing the port drops it.
  std::function<void(Listener&, Socket, BudgetPlace)> raw_connections;
};

}  // namespace rift::http
