#include "runtime/http/connection.h"

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <chrono>

namespace rift::http {

namespace asio = boost::asio;
using asio::ip::tcp;
using boost::system::error_code;

namespace {

constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";

std::string_view error_response(int status) {
  switch (status) {
    case 413:
      return "HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";
    case 431:
      return "HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n"
             "Content-Length: 0\r\n\r\n";
    case 500:
      return "HTTP/1.1 500 Internal Server Error\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";
    default:
      return "HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";
  }
}

// After an error reply the client may still be sending (a 413 body, say). Closing with unread
// data makes the kernel send RST, which can destroy the reply before the client reads it, so
// the connection drains for a while before closing.
constexpr auto kLingerTime = std::chrono::seconds(2);

}  // namespace

Connection::Connection(Socket socket, std::shared_ptr<Listener> listener)
    : socket_(std::move(socket)),
      listener_(std::move(listener)),
      parser_(listener_->limits()),
      timer_(socket_.get_executor()) {}

void Connection::start() {
  error_code error;
  socket_.set_option(tcp::no_delay(true), error);
  const tcp::endpoint remote = socket_.remote_endpoint(error);
  if (error) {
    close();
    return;
  }
  remote_address_ = remote.address().to_string();
  remote_port_ = remote.port();
  read();
}

void Connection::abort() {
  if (!closed_) close();
}

void Connection::close() {
  closed_ = true;
  unlink();
  timer_.cancel();
  error_code ignored;
  socket_.close(ignored);
}

void Connection::reset() {
  error_code ignored;
  socket_.set_option(asio::socket_base::linger(true, 0), ignored);
  close();
}

void Connection::read() {
  socket_.async_read_some(asio::buffer(buffer_),
                          [self = shared_from_this()](error_code error, size_t size) {
                            if (self->closed_) return;
                            if (error) {
                              // EOF or a reset, idle or mid-request: nothing to answer.
                              self->close();
                              return;
                            }
                            self->begin_ = 0;
                            self->end_ = size;
                            self->process();
                          });
}

void Connection::process() {
  while (begin_ < end_) {
    const auto [status, consumed] = parser_.feed(buffer_.data() + begin_, end_ - begin_);
    begin_ += consumed;
    switch (status) {
      case RequestParser::Status::need_more:
        break;
      case RequestParser::Status::expect_continue:
        parser_.next();
        write_continue();
        return;
      case RequestParser::Status::message:
        dispatch();
        return;
      case RequestParser::Status::error:
        send_error(parser_.error_status());
        return;
    }
  }
  read();
}

void Connection::write_continue() {
  asio::async_write(socket_, asio::buffer(kContinue),
                    [self = shared_from_this()](error_code error, size_t) {
                      if (self->closed_) return;
                      if (error) {
                        self->close();
                        return;
                      }
                      self->process();
                    });
}

void Connection::dispatch() {
  Message& message = parser_.message();
  message.remote_address = remote_address_;
  message.remote_port = remote_port_;
  message.loop = &socket_.get_executor().context();
  awaiting_reply_ = true;
  try {
    listener_->handler()(std::move(message), [self = shared_from_this()](Reply reply) {
      self->on_reply(std::move(reply));
    });
  } catch (...) {
    // A throwing handler must not take the worker down; the client gets a 500 unless the
    // handler had already answered.
    if (awaiting_reply_) {
      awaiting_reply_ = false;
      send_error(500);
    }
  }
}

void Connection::on_reply(Reply reply) {
  if (!socket_.get_executor().running_in_this_thread()) {
    asio::post(socket_.get_executor(),
               [self = shared_from_this(), reply = std::move(reply)]() mutable {
                 self->on_reply(std::move(reply));
               });
    return;
  }
  if (!awaiting_reply_ || closed_) return;
  awaiting_reply_ = false;
  if (reply.reset) {
    reset();
    return;
  }
  close_after_write_ = reply.close || !parser_.keep_alive() || parser_.upgrade();
  out_ = std::move(reply.bytes);
  if (reply.delay.count() > 0) {
    timer_.expires_after(reply.delay);
    timer_.async_wait([self = shared_from_this()](error_code error) {
      if (error || self->closed_) return;
      self->write_reply();
    });
    return;
  }
  write_reply();
}

void Connection::write_reply() {
  asio::async_write(socket_, asio::buffer(out_),
                    [self = shared_from_this()](error_code error, size_t) {
                      if (self->closed_) return;
                      if (error) {
                        self->close();
                        return;
                      }
                      if (self->close_after_write_) {
                        self->linger_close();
                        return;
                      }
                      self->parser_.next();
                      self->process();
                    });
}

void Connection::send_error(int status) {
  asio::async_write(socket_, asio::buffer(error_response(status)),
                    [self = shared_from_this()](error_code error, size_t) {
                      if (self->closed_) return;
                      if (error) {
                        self->close();
                        return;
                      }
                      self->linger_close();
                    });
}

void Connection::linger_close() {
  error_code error;
  socket_.shutdown(Socket::shutdown_send, error);
  if (error) {
    close();
    return;
  }
  timer_.expires_after(kLingerTime);
  timer_.async_wait([self = shared_from_this()](error_code wait_error) {
    if (!wait_error && !self->closed_) self->close();
  });
  drain();
}

void Connection::drain() {
  socket_.async_read_some(asio::buffer(buffer_),
                          [self = shared_from_this()](error_code error, size_t) {
                            if (self->closed_) return;
                            if (error) {
                              self->close();
                              return;
                            }
                            self->drain();
                          });
}

}  // namespace rift::http
