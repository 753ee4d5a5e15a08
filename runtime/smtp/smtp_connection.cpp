#include "runtime/smtp/smtp_connection.h"

#include <array>
#include <boost/asio/buffer.hpp>
#include <boost/asio/ip/host_name.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <exception>
#include <optional>
#include <variant>
#include <vector>

#include "runtime/http/listener.h"
#include "runtime/http/tls_context.h"
#include "runtime/smtp/starttls_certificate.h"

namespace rift::smtp {
namespace {

namespace asio = boost::asio;
using boost::system::error_code;

// After QUIT or a 421 the server sends FIN and reads until the client closes, at most this long:
// closing at once with unread input would make the kernel send RST, which can destroy the last
// reply before the client reads it.
constexpr auto kLingerTime = std::chrono::seconds(2);

class SmtpConnection final : public http::TrackedConnection,
                             public std::enable_shared_from_this<SmtpConnection> {
 public:
  SmtpConnection(http::Socket socket, std::shared_ptr<http::Listener> listener,
                 http::BudgetPlace place, std::shared_ptr<const MailHandler> handler,
                 const SmtpLimits& limits, const std::string& host_name,
                 std::shared_ptr<http::TlsContext> tls_context)
      : socket_(std::move(socket)),
        listener_(std::move(listener)),
        place_(std::move(place)),
        handler_(std::move(handler)),
        limits_(limits),
        host_name_(host_name),
        tls_context_(std::move(tls_context)) {
    limits_.starttls = limits_.starttls && tls_context_ != nullptr;
  }

  void start() {
    error_code error;
    socket().set_option(asio::ip::tcp::no_delay(true), error);
    const auto remote = socket().remote_endpoint(error);
    if (error) {
      close();
      return;
    }
    remote_address_ = mountebank_address(remote.address());
    remote_port_ = remote.port();
    session_.emplace(limits_, host_name_, remote_address_);
    since_ = listener_->now();
    out_ = session_->greeting();
    write();
  }

  // The imposter is going: Mountebank destroys its clients' sockets at once.
  void retire() override { close(); }

  void expire(std::chrono::steady_clock::time_point now) override {
    if (closed_) return;
    // since_ is a sweep's time, up to one interval early: a timeout fires late, never early.
    const auto waited = now - since_ - http::Listener::kSweepInterval;
    if (lingering_) {
      if (waited >= kLingerTime) close();
      return;
    }
    if (waited < limits_.idle_timeout) return;
    if (!writing_ && !tls_) {
      // A read is pending, so nothing asynchronous may start: the 421 is tiny and goes straight
      // into the socket's empty send buffer. (Under TLS it would need a record of its own; the
      // connection just closes.)
      std::string reply;
      session_->time_out(reply);
      error_code ignored;
      socket_.non_blocking(true, ignored);
      socket_.write_some(asio::buffer(reply), ignored);
    }
    close();  // a client that reads nothing for that long gets no goodbye
  }

 private:
  // The TCP socket, under TLS once STARTTLS has begun.
  http::Socket& socket() { return tls_ ? tls_->next_layer() : socket_; }

  void write() {
    writing_ = true;
    auto written = [self = shared_from_this()](error_code error, size_t) {
      self->writing_ = false;
      if (self->closed_) return;
      if (error) {
        self->close();
        return;
      }
      self->out_.clear();
      self->since_ = self->listener_->now();
      if (self->session_->finished()) {
        self->linger();
      } else if (self->session_->wants_tls()) {
        self->start_tls();
      } else {
        self->read();
      }
    };
    if (tls_) {
      asio::async_write(*tls_, asio::buffer(out_), std::move(written));
    } else {
      asio::async_write(socket_, asio::buffer(out_), std::move(written));
    }
  }

  void read() {
    auto received = [self = shared_from_this()](error_code error, size_t size) {
      if (self->closed_) return;
      if (error) {
        self->close();  // EOF or reset: nothing to answer
        return;
      }
      self->since_ = self->listener_->now();
      self->received(std::string_view(self->buffer_.data(), size));
    };
    if (tls_) {
      tls_->async_read_some(asio::buffer(buffer_), std::move(received));
    } else {
      socket_.async_read_some(asio::buffer(buffer_), std::move(received));
    }
  }

  void received(std::string_view bytes) {
    std::vector<SmtpMail> completed;
    session_->feed(bytes, out_, completed);
    for (SmtpMail& mail : completed) {
      try {
        (*handler_)(std::move(mail), remote_address_, remote_port_);
      } catch (const std::exception&) {
        // The message is answered as accepted all the same (Mountebank logs a failure to record
        // it and carries on); the worker thread must not unwind.
      }
    }
    if (out_.empty()) {
      read();
    } else {
      write();
    }
  }

  // "220 Ready to start TLS" is out: the same socket continues as a TLS server. The idle timeout
  // covers a client that never finishes its handshake.
  void start_tls() {
    tls_.emplace(std::move(socket_), *tls_context_);
    tls_->async_handshake(asio::ssl::stream_base::server,
                          [self = shared_from_this()](error_code error) {
                            if (self->closed_) return;
                            if (error) {
                              self->close();
                              return;
                            }
                            self->since_ = self->listener_->now();
                            self->session_->tls_started();
                            self->read();
                          });
  }

  void linger() {
    lingering_ = true;
    if (tls_) {
      // close_notify first; the shutdown completes when the client answers or hangs up.
      tls_->async_shutdown([self = shared_from_this()](error_code) { self->close(); });
      return;
    }
    error_code error;
    socket_.shutdown(http::Socket::shutdown_send, error);
    if (error) {
      close();
      return;
    }
    drain();
  }

  void drain() {
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

  void close() {
    if (closed_) return;
    closed_ = true;
    unlink();
    error_code ignored;
    socket().close(ignored);
  }

  http::Socket socket_;
  std::shared_ptr<http::Listener> listener_;
  http::BudgetPlace place_;
  std::shared_ptr<const MailHandler> handler_;
  SmtpLimits limits_;
  std::string host_name_;
  std::shared_ptr<http::TlsContext> tls_context_;  // null: STARTTLS is not offered
  std::optional<http::TlsStream> tls_;             // the socket, moved in by STARTTLS
  std::optional<SmtpSession> session_;
  std::string remote_address_;
  uint16_t remote_port_ = 0;
  std::string out_;  // replies not written yet
  std::chrono::steady_clock::time_point since_;
  bool writing_ = false;
  bool lingering_ = false;
  bool closed_ = false;
  std::array<char, 16 * 1024> buffer_;
};

std::string local_host_name() {
  try {
    return asio::ip::host_name();
  } catch (const std::exception&) {
    return "localhost";
  }
}

// One TLS context for every smtp imposter, with smtp-server's certificate; null if OpenSSL
// refuses it (STARTTLS is then not offered).
std::shared_ptr<http::TlsContext> starttls_context() {
  static const std::shared_ptr<http::TlsContext> context = [] {
    http::TlsSettings settings;
    settings.key_pem = std::string(kStarttlsKeyPem);
    settings.cert_pem = std::string(kStarttlsCertPem);
    auto made = http::make_tls_context(settings);
    auto* ready = std::get_if<std::shared_ptr<http::TlsContext>>(&made);
    return ready != nullptr ? *ready : nullptr;
  }();
  return context;
}

}  // namespace

std::string mountebank_address(const asio::ip::address& address) {
  if (address.is_v6() && address.to_v6().is_v4_mapped()) {
    return asio::ip::make_address_v4(asio::ip::v4_mapped, address.to_v6()).to_string();
  }
  return address.to_string();
}

std::function<void(http::Listener&, http::Socket, http::BudgetPlace)> smtp_connections(
    std::shared_ptr<const MailHandler> handler, SmtpLimits limits) {
  std::shared_ptr<http::TlsContext> tls = limits.starttls ? starttls_context() : nullptr;
  return [handler = std::move(handler), limits, host = local_host_name(), tls = std::move(tls)](
             http::Listener& listener, http::Socket socket, http::BudgetPlace place) {
    auto connection =
        std::make_shared<SmtpConnection>(std::move(socket), listener.shared_from_this(),
                                         std::move(place), handler, limits, host, tls);
    listener.track(*connection);
    connection->start();
  };
}

}  // namespace rift::smtp
