#include "runtime/http/h2_connection.h"

#include <nghttp2/nghttp2.h>

#include <boost/asio/post.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/write.hpp>
#include <cstring>
#include <type_traits>
#include <utility>

#include "compiler/ascii.h"
#include "runtime/http/traffic_counters.h"

namespace rift::http {

namespace asio = boost::asio;
using boost::system::error_code;

namespace {

// Enough for browsers and load generators (h2load -m), few enough that one connection cannot
// hold a worker's memory hostage.
constexpr uint32_t kMaxConcurrentStreams = 128;

// The headers an upgraded HTTP/1.1 request carried for the upgrade itself, not for the imposter.
bool upgrade_header(std::string_view name) {
  return ascii::iequals(name, "connection") || ascii::iequals(name, "upgrade") ||
         ascii::iequals(name, "http2-settings") || ascii::iequals(name, "keep-alive") ||
         ascii::iequals(name, "transfer-encoding");
}

std::string_view view(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Hands a stream's Reply to its connection on the connection's thread.
template <typename Stream>
class StreamSink final : public ReplySink {
 public:
  using Executor = std::decay_t<decltype(std::declval<Stream&>().lowest_layer().get_executor())>;
  StreamSink(std::weak_ptr<H2Connection<Stream>> connection, int32_t stream_id, Executor executor)
      : connection_(std::move(connection)), stream_id_(stream_id), executor_(std::move(executor)) {}

  void on_reply(Reply reply) override {
    reply.materialize();  // lent pieces live only until this call returns
    if (executor_.running_in_this_thread()) {
      if (auto connection = connection_.lock()) connection->answer(stream_id_, std::move(reply));
      return;
    }
    asio::post(executor_,
               [connection = connection_, id = stream_id_, reply = std::move(reply)]() mutable {
                 if (auto alive = connection.lock()) alive->answer(id, std::move(reply));
               });
  }

 private:
  std::weak_ptr<H2Connection<Stream>> connection_;
  int32_t stream_id_;
  Executor executor_;
};

}  // namespace

template <typename Stream>
struct H2Connection<Stream>::Callbacks {
  static H2Connection& self(void* user_data) { return *static_cast<H2Connection*>(user_data); }

  static int begin_headers(nghttp2_session*, const nghttp2_frame* frame, void* user_data) {
    if (frame->hd.type != NGHTTP2_HEADERS || frame->headers.cat != NGHTTP2_HCAT_REQUEST) return 0;
    auto state = std::make_unique<StreamState>();
    state->message.version_major = 2;
    state->message.version_minor = 0;
    self(user_data).streams_[frame->hd.stream_id] = std::move(state);
    return 0;
  }

  static int header(nghttp2_session*, const nghttp2_frame* frame, const uint8_t* name,
                    size_t name_size, const uint8_t* value, size_t value_size, uint8_t,
                    void* user_data) {
    StreamState* state = self(user_data).stream(frame->hd.stream_id);
    if (!state || state->dispatched) return 0;  // trailers are not part of the request model
    const std::string_view key = view(name, name_size);
    const std::string_view text = view(value, value_size);
    Message& message = state->message;
    if (key == ":method") {
      message.method.assign(text);
    } else if (key == ":path") {
      message.target.assign(text);
    } else if (key == ":authority") {
      // HTTP/1's Host, first, as a client would have sent it (RFC 9113 §8.3.1).
      message.headers.insert(message.headers.begin(), {"host", std::string(text)});
    } else if (!key.starts_with(':')) {
      if (key == "host" && !message.headers.empty() && message.headers.front().first == "host") {
        return 0;  // :authority already stands for it
      }
      message.headers.emplace_back(std::string(key), std::string(text));
    }
    return 0;
  }

  static int data_chunk(nghttp2_session*, uint8_t, int32_t stream_id, const uint8_t* data,
                        size_t size, void* user_data) {
    H2Connection& connection = self(user_data);
    StreamState* state = connection.stream(stream_id);
    if (!state || state->dispatched) return 0;
    const size_t limit = connection.listener_->limits().max_body_bytes;
    std::string& body = state->message.body;
    if (body.size() + size > limit) {
      state->body_limit_excess += size;
      return 0;
    }
    body.append(reinterpret_cast<const char*>(data), size);
    return 0;
  }

  static int frame_received(nghttp2_session*, const nghttp2_frame* frame, void* user_data) {
    const bool request_part = frame->hd.type == NGHTTP2_HEADERS || frame->hd.type == NGHTTP2_DATA;
    if (request_part && (frame->hd.flags & NGHTTP2_FLAG_END_STREAM)) {
      self(user_data).dispatch(frame->hd.stream_id);
    }
    return 0;
  }

  static int stream_closed(nghttp2_session*, int32_t stream_id, uint32_t, void* user_data) {
    self(user_data).streams_.erase(stream_id);
    return 0;
  }

  static ssize_t read_body(nghttp2_session*, int32_t, uint8_t* buffer, size_t length,
                           uint32_t* flags, nghttp2_data_source* source, void*) {
    auto& state = *static_cast<StreamState*>(source->ptr);
    const size_t size = std::min(length, state.reply.body.size() - state.sent);
    std::memcpy(buffer, state.reply.body.data() + state.sent, size);
    state.sent += size;
    if (state.sent == state.reply.body.size()) *flags |= NGHTTP2_DATA_FLAG_EOF;
    return static_cast<ssize_t>(size);
  }
};

template <typename Stream>
H2Connection<Stream>::H2Connection(Stream stream, std::shared_ptr<Listener> listener,
                                   BudgetPlace place, std::string remote_address,
                                   uint16_t remote_port)
    : stream_(std::move(stream)),
      listener_(std::move(listener)),
      place_(std::move(place)),
      remote_address_(std::move(remote_address)),
      remote_port_(remote_port) {}

template <typename Stream>
H2Connection<Stream>::~H2Connection() {
  if (session_) nghttp2_session_del(session_);
}

template <typename Stream>
void H2Connection<Stream>::start(std::string_view preamble, std::string_view received,
                                 std::optional<H2Upgrade> upgrade) {
  nghttp2_session_callbacks* callbacks = nullptr;
  nghttp2_session_callbacks_new(&callbacks);
  nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, &Callbacks::begin_headers);
  nghttp2_session_callbacks_set_on_header_callback(callbacks, &Callbacks::header);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, &Callbacks::data_chunk);
  nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, &Callbacks::frame_received);
  nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, &Callbacks::stream_closed);
  const int made = nghttp2_session_server_new(&session_, callbacks, this);
  nghttp2_session_callbacks_del(callbacks);
  since_ = listener_->now();
  if (made != 0) {
    close();
    return;
  }
  const nghttp2_settings_entry settings[] = {
      {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, kMaxConcurrentStreams}};
  nghttp2_submit_settings(session_, NGHTTP2_FLAG_NONE, settings, std::size(settings));
  pending_.assign(preamble);
  if (upgrade) {
    const auto& given = upgrade->settings;
    const bool head = upgrade->request.method == "HEAD";
    if (nghttp2_session_upgrade2(session_, reinterpret_cast<const uint8_t*>(given.data()),
                                 given.size(), head, nullptr) != 0) {
      close();
      return;
    }
    auto state = std::make_unique<StreamState>();
    state->message = std::move(upgrade->request);
    std::erase_if(state->message.headers,
                  [](const auto& header) { return upgrade_header(header.first); });
    streams_[1] = std::move(state);
    dispatch(1);
  }
  if (received.empty()) {
    flush();
    read();
  } else {
    this->received(received.data(), received.size());
  }
}

template <typename Stream>
typename H2Connection<Stream>::StreamState* H2Connection<Stream>::stream(int32_t stream_id) {
  auto it = streams_.find(stream_id);
  return it == streams_.end() ? nullptr : it->second.get();
}

template <typename Stream>
void H2Connection<Stream>::read() {
  stream_.async_read_some(asio::buffer(buffer_),
                          [self = this->shared_from_this()](error_code error, size_t size) {
                            if (self->closed_) return;
                            if (error) {
                              self->close();
                              return;
                            }
                            self->received(self->buffer_.data(), size);
                          });
}

template <typename Stream>
void H2Connection<Stream>::received(const char* data, size_t size) {
  since_ = listener_->now();
  in_recv_ = true;
  const ssize_t used =
      nghttp2_session_mem_recv(session_, reinterpret_cast<const uint8_t*>(data), size);
  in_recv_ = false;
  if (used < 0) {
    // Not HTTP/2, or a connection error: nghttp2 has queued its GOAWAY; send it, then close.
    nghttp2_session_terminate_session(session_, NGHTTP2_PROTOCOL_ERROR);
    flush();
    return;
  }
  flush();
  if (!closed_ && nghttp2_session_want_read(session_)) read();
}

template <typename Stream>
void H2Connection<Stream>::dispatch(int32_t stream_id) {
  StreamState* state = stream(stream_id);
  if (!state || state->dispatched) return;
  state->dispatched = true;
  Message& message = state->message;
  state->head = message.method == "HEAD";
  state->method_slot = AnswerCounters::method_slot(message.method);
  if (state->method_slot == AnswerCounters::kOtherMethod) state->other_method = message.method;
  if (state->body_limit_excess > 0) {
    Reply reply;
    reply.bytes = "HTTP/1.1 413 Payload Too Large\r\nContent-Length: 0\r\n\r\n";
    submit(stream_id, *state, std::move(reply));
    return;
  }
  if (message.method == "CONNECT") {  // no tunnels inside h2
    nghttp2_submit_rst_stream(session_, NGHTTP2_FLAG_NONE, stream_id, NGHTTP2_REFUSED_STREAM);
    return;
  }
  message.remote_address = remote_address_;
  message.remote_port = remote_port_;
  message.loop = &stream_.lowest_layer().get_executor().context();
  auto sink = std::make_shared<StreamSink<Stream>>(this->weak_from_this(), stream_id,
                                                   stream_.lowest_layer().get_executor());
  try {
    listener_->handler()(std::move(message), Respond(std::move(sink)));
  } catch (...) {
    StreamState* still = stream(stream_id);
    if (still && still->reply.status == 200 && still->sent == 0) {
      Reply reply;
      reply.bytes = "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n";
      submit(stream_id, *still, std::move(reply));
    }
  }
}

template <typename Stream>
void H2Connection<Stream>::answer(int32_t stream_id, Reply reply) {
  StreamState* state = stream(stream_id);
  if (closed_ || !state) return;  // the client reset the stream, or went
  if (reply.delay.count() > 0) {
    const auto delay = reply.delay;
    reply.delay = {};
    reply.materialize();
    state->delay = std::make_unique<Timer>(stream_.lowest_layer().get_executor());
    state->delay->expires_after(delay);
    state->delay->async_wait([self = this->shared_from_this(), stream_id,
                              reply = std::move(reply)](error_code error) mutable {
      if (!error && !self->closed_) self->answer(stream_id, std::move(reply));
    });
    return;
  }
  submit(stream_id, *state, std::move(reply));
}

template <typename Stream>
void H2Connection<Stream>::submit(int32_t stream_id, StreamState& state, Reply reply) {
  if (const auto& answers = listener_->limits().answers; answers && !reply.reset) {
    answers->count(state.method_slot, state.other_method, reply_status(reply));
  }
  reply.materialize();
  std::optional<ReplyParts> parts;
  // A reset (a TCP fault) and a stream of chunks (never an imposter's) have no h2 form: the
  // stream is reset; the connection and its other streams go on.
  if (!reply.reset && !reply.stream) parts = split_reply(reply.bytes);
  if (!parts) {
    nghttp2_submit_rst_stream(session_, NGHTTP2_FLAG_NONE, stream_id, NGHTTP2_INTERNAL_ERROR);
    flush();
    return;
  }
  state.reply = std::move(*parts);
  const std::string status = std::to_string(state.reply.status);
  std::vector<nghttp2_nv> headers;
  headers.reserve(state.reply.headers.size() + 1);
  const auto add = [&headers](std::string_view name, std::string_view value) {
    headers.push_back({reinterpret_cast<uint8_t*>(const_cast<char*>(name.data())),
                       reinterpret_cast<uint8_t*>(const_cast<char*>(value.data())), name.size(),
                       value.size(), NGHTTP2_NV_FLAG_NONE});
  };
  add(":status", status);
  const bool bodiless = state.head || state.reply.status == 204 || state.reply.status == 304 ||
                        state.reply.status < 200;
  const std::string body_size = std::to_string(state.reply.body.size());
  for (const auto& [name, value] : state.reply.headers) {
    // A Content-Length that disagrees with the DATA sent is a malformed response in h2
    // (RFC 9113 §8.1.1); a stub may well say one (Mountebank sends what it is told).
    if (name == "content-length" && !bodiless && value != body_size) continue;
    add(name, value);
  }
  nghttp2_data_provider body{};
  body.source.ptr = &state;
  body.read_callback = &Callbacks::read_body;
  const bool has_body = !bodiless && !state.reply.body.empty();
  if (nghttp2_submit_response(session_, stream_id, headers.data(), headers.size(),
                              has_body ? &body : nullptr) != 0) {
    nghttp2_submit_rst_stream(session_, NGHTTP2_FLAG_NONE, stream_id, NGHTTP2_INTERNAL_ERROR);
  }
  flush();
}

template <typename Stream>
void H2Connection<Stream>::flush() {
  if (closed_ || writing_ || in_recv_) return;
  while (true) {
    const uint8_t* data = nullptr;
    const ssize_t size = nghttp2_session_mem_send(session_, &data);
    if (size < 0) {
      close();
      return;
    }
    if (size == 0) break;
    pending_.append(reinterpret_cast<const char*>(data), static_cast<size_t>(size));
  }
  if (pending_.empty()) {
    settle();
    return;
  }
  out_.swap(pending_);
  pending_.clear();
  writing_ = true;
  asio::async_write(stream_, asio::buffer(out_),
                    [self = this->shared_from_this()](error_code error, size_t) {
                      self->writing_ = false;
                      if (self->closed_) return;
                      if (error) {
                        self->close();
                        return;
                      }
                      self->out_.clear();
                      self->since_ = self->listener_->now();
                      self->flush();
                    });
}

template <typename Stream>
void H2Connection<Stream>::settle() {
  if (closed_ || writing_) return;
  const bool done = !nghttp2_session_want_read(session_) && !nghttp2_session_want_write(session_);
  if (done || (retiring_ && streams_.empty())) close();
}

template <typename Stream>
void H2Connection<Stream>::retire() {
  if (closed_) return;
  retiring_ = true;
  if (streams_.empty()) {
    nghttp2_session_terminate_session(session_, NGHTTP2_NO_ERROR);
    flush();
  }
}

template <typename Stream>
void H2Connection<Stream>::expire(std::chrono::steady_clock::time_point now) {
  if (closed_ || !streams_.empty() || writing_) return;
  // The same keep-alive as HTTP/1: an idle connection says goodbye (GOAWAY) and closes.
  if (now - since_ - Listener::kSweepInterval >= listener_->limits().keep_alive_timeout) {
    nghttp2_session_terminate_session(session_, NGHTTP2_NO_ERROR);
    flush();
  }
}

template <typename Stream>
void H2Connection<Stream>::close() {
  if (closed_) return;
  closed_ = true;
  unlink();
  streams_.clear();  // their delay timers are cancelled as they go
  error_code ignored;
  stream_.lowest_layer().close(ignored);
}

template class H2Connection<Socket>;
template class H2Connection<TlsStream>;

}  // namespace rift::http
