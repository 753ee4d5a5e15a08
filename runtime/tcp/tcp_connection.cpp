#include "runtime/tcp/tcp_connection.h"

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>

namespace rift::tcp {

namespace asio = boost::asio;

std::function<void(http::Listener&, http::Socket, http::BudgetPlace)> connections(
    std::shared_ptr<const http::Handler> handler, Framing framing) {
  auto shared_framing = std::make_shared<const Framing>(std::move(framing));
  return [handler = std::move(handler), shared_framing](
             http::Listener& listener, http::Socket socket, http::BudgetPlace place) {
    auto connection = std::make_shared<TcpConnection>(std::move(socket), handler, shared_framing,
                                                      std::move(place));
    listener.track(*connection);
    connection->start();
  };
}

TcpConnection::TcpConnection(http::Socket socket, std::shared_ptr<const http::Handler> handler,
                             std::shared_ptr<const Framing> framing, http::BudgetPlace place)
    : socket_(std::move(socket)),
      handler_(std::move(handler)),
      framing_(std::move(framing)),
      place_(std::move(place)),
      timer_(socket_.get_executor()) {}

void TcpConnection::start() {
  boost::system::error_code error;
  const auto remote = socket_.remote_endpoint(error);
  if (error) {
    close();
    return;
  }
  remote_address_ = remote.address().to_string();
  remote_port_ = remote.port();
  socket_.set_option(asio::ip::tcp::no_delay(true), error);
  read();
}

void TcpConnection::retire() {
  // Mountebank destroys every socket of an imposter it stops, whatever is in flight.
  close();
}

void TcpConnection::read() {
  if (closed_) return;
  socket_.async_read_some(asio::buffer(buffer_), [self = shared_from_this()](
                                                     boost::system::error_code error, size_t size) {
    if (error) {
      self->close();
      return;
    }
    self->received(size);
  });
}

void TcpConnection::received(size_t size) {
  gathered_.append(buffer_.data(), size);
  const Framing& framing = *framing_;
  if (framing.ends_request && !framing.ends_request(gathered_)) {
    if (gathered_.size() > framing.max_request_bytes) {
      close();
      return;
    }
    read();
    return;
  }
  dispatch();
}

void TcpConnection::dispatch() {
  message_.body.swap(gathered_);
  gathered_.clear();
  message_.remote_address = remote_address_;
  message_.remote_port = remote_port_;
  message_.loop = &static_cast<asio::io_context&>(socket_.get_executor().context());
  // The reply may come later, from another thread: the connection reads on once it is written.
  (*handler_)(std::move(message_), http::Respond(shared_from_this()));
}

void TcpConnection::on_reply(http::Reply reply) {
  if (!socket_.get_executor().running_in_this_thread()) {
    reply.materialize();
    asio::post(socket_.get_executor(),
               [self = shared_from_this(), reply = std::move(reply)]() mutable {
                 self->deliver(std::move(reply));
               });
    return;
  }
  deliver(std::move(reply));
}

void TcpConnection::deliver(http::Reply reply) {
  if (closed_) return;
  if (reply.delay.count() > 0) {
    reply.materialize();  // its lent pieces live only until the Respond call returns
    timer_.expires_after(reply.delay);
    reply.delay = {};
    timer_.async_wait([self = shared_from_this(),
                       reply = std::move(reply)](boost::system::error_code error) mutable {
      if (!error) self->deliver(std::move(reply));
    });
    return;
  }
  if (reply.reset) {
    reset();
    return;
  }
  // Nothing is read while a reply is written, so one buffer serves every reply (its capacity
  // kept from one to the next).
  out_.clear();
  reply.append_to(out_);
  if (out_.empty()) {
    if (reply.close) {
      close();
    } else {
      read();
    }
    return;
  }
  asio::async_write(socket_, asio::buffer(out_),
                    [self = shared_from_this(), then_close = reply.close](
                        boost::system::error_code error, size_t) {
                      if (error || then_close) {
                        self->close();
                        return;
                      }
                      self->read();
                    });
}

void TcpConnection::reset() {
  if (closed_) return;
  boost::system::error_code ignored;
  socket_.set_option(asio::socket_base::linger(true, 0), ignored);
  close();
}

void TcpConnection::close() {
  if (closed_) return;
  closed_ = true;
  boost::system::error_code ignored;
  timer_.cancel();
  socket_.close(ignored);
  unlink();  // the listener no longer needs to drop it
}

}  // namespace rift::tcp
