// smtp_connections over real sockets on 127.0.0.1: a listener hands its sockets to the SMTP
// connection, mail reaches the handler before the client hears 250, an idle client is timed out
// and closing the listener drops its clients.
#include "runtime/smtp/smtp_connection.h"

#include <gtest/gtest.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/write.hpp>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "runtime/http/acceptor.h"
#include "runtime/http/listener.h"

namespace rift::smtp {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

struct Received {
  SmtpMail mail;
  std::string address;
  uint16_t port;
};

// A listener on an ephemeral port, run on its own thread.
class Server {
 public:
  explicit Server(SmtpLimits limits = {}) {
    const auto endpoint =
        std::get<tcp::endpoint>(http::resolve_listen_endpoint(context_, "127.0.0.1", 0));
    auto acceptor = std::get<http::Acceptor>(http::open_acceptor(context_, endpoint, false));
    port_ = acceptor.local_endpoint().port();
    http::Limits http_limits;
    http_limits.raw_connections =
        smtp_connections(std::make_shared<const MailHandler>(
                             [this](SmtpMail&& mail, const std::string& address, uint16_t port) {
                               std::lock_guard lock(mutex_);
                               received_.push_back({std::move(mail), address, port});
                             }),
                         limits);
    listener_ = std::make_shared<http::Listener>(
        std::move(acceptor), std::make_shared<const http::Handler>(), http_limits);
    listener_->start();
    thread_ = std::thread([this] { context_.run(); });
  }

  ~Server() {
    close();
    context_.stop();
    thread_.join();
  }

  void close() {
    if (std::exchange(closed_, true)) return;  // once closed, the loop may have run out of work
    std::promise<void> done;
    asio::post(context_, [&] {
      listener_->close();
      done.set_value();
    });
    done.get_future().wait();
  }

  uint16_t port() const { return port_; }

  std::vector<Received> received() {
    std::lock_guard lock(mutex_);
    return received_;
  }

 private:
  asio::io_context context_;
  std::shared_ptr<http::Listener> listener_;
  uint16_t port_ = 0;
  bool closed_ = false;
  std::thread thread_;
  std::mutex mutex_;
  std::vector<Received> received_;
};

// A blocking client with a receive timeout, so a server bug fails the test instead of hanging it.
class Client {
 public:
  explicit Client(uint16_t port) : socket_(context_) {
    socket_.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
    timeval timeout{5, 0};
    setsockopt(socket_.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  }

  void send(const std::string& bytes) { asio::write(socket_, asio::buffer(bytes)); }

  // Reads until `count` complete replies (final lines) arrived, or the connection ended: the text.
  std::string replies(int count) {
    for (;;) {
      int finals = 0;
      for (size_t start = 0; start < pending_.size();) {
        const size_t end = pending_.find("\r\n", start);
        if (end == std::string::npos) break;
        if (end - start >= 4 && pending_[start + 3] == ' ') ++finals;
        start = end + 2;
      }
      if (finals >= count || closed_) return std::exchange(pending_, "");
      char buffer[4096];
      boost::system::error_code error;
      const size_t size = socket_.read_some(asio::buffer(buffer), error);
      if (error) {
        closed_ = true;
        continue;
      }
      pending_.append(buffer, size);
    }
  }

  // Whether the server closed the connection (reads until EOF or the timeout).
  bool closed_by_server() {
    char buffer[256];
    boost::system::error_code error;
    while (!error) socket_.read_some(asio::buffer(buffer), error);
    return error == asio::error::eof || error == asio::error::connection_reset;
  }

 private:
  asio::io_context context_;
  tcp::socket socket_;
  std::string pending_;
  bool closed_ = false;
};

TEST(SmtpConnection, RecordsMailBeforeAcceptingIt) {
  Server server;
  Client client(server.port());
  EXPECT_EQ(client.replies(1).substr(0, 4), "220 ");
  client.send("EHLO me\r\nMAIL FROM:<a@b.c>\r\nRCPT TO:<x@y.z>\r\nDATA\r\n");
  const std::string dialogue = client.replies(4);
  EXPECT_NE(dialogue.find("Nice to meet you, [127.0.0.1]"), std::string::npos);
  EXPECT_NE(dialogue.find("354 End data"), std::string::npos);
  client.send("Subject: hi\r\n\r\n..dot\r\n.\r\n");
  EXPECT_EQ(client.replies(1), "250 OK: message queued\r\n");
  const auto received = server.received();  // the handler ran before the reply was written
  ASSERT_EQ(received.size(), 1u);
  EXPECT_EQ(received[0].mail.data, "Subject: hi\r\n\r\n.dot\r\n");
  EXPECT_EQ(received[0].address, "127.0.0.1");
  EXPECT_NE(received[0].port, 0);
  client.send("QUIT\r\n");
  EXPECT_EQ(client.replies(1), "221 Bye\r\n");
  EXPECT_TRUE(client.closed_by_server());
}

// Reads from `stream` until a reply's final line ("ddd text") arrived: that reply.
template <typename Stream>
std::string read_reply(Stream& stream) {
  std::string pending;
  for (;;) {
    const size_t last_line = pending.rfind("\r\n", pending.size() >= 2 ? pending.size() - 3 : 0);
    const size_t start = last_line == std::string::npos ? 0 : last_line + 2;
    if (pending.size() >= 2 && pending.compare(pending.size() - 2, 2, "\r\n") == 0 &&
        pending.size() - start >= 4 && pending[start + 3] == ' ') {
      return pending;
    }
    char buffer[4096];
    boost::system::error_code error;
    const size_t size = stream.read_some(asio::buffer(buffer), error);
    if (error) return pending;
    pending.append(buffer, size);
  }
}

TEST(SmtpConnection, StartsTlsWithSmtpServersCertificate) {
  Server server;
  asio::io_context context;
  tcp::socket socket(context);
  socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), server.port()));
  timeval timeout{5, 0};
  setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  EXPECT_EQ(read_reply(socket).substr(0, 4), "220 ");
  asio::write(socket, asio::buffer(std::string("EHLO me\r\n")));
  EXPECT_NE(read_reply(socket).find("250 STARTTLS\r\n"), std::string::npos);
  asio::write(socket, asio::buffer(std::string("STARTTLS\r\n")));
  EXPECT_EQ(read_reply(socket), "220 Ready to start TLS\r\n");

  asio::ssl::context client_context(asio::ssl::context::tls_client);
  client_context.set_verify_mode(asio::ssl::verify_none);  // self-signed, and expired
  asio::ssl::stream<tcp::socket&> tls(socket, client_context);
  tls.handshake(asio::ssl::stream_base::client);
  X509* certificate = SSL_get1_peer_certificate(tls.native_handle());
  ASSERT_NE(certificate, nullptr);
  char common_name[64] = {};
  X509_NAME_get_text_by_NID(X509_get_subject_name(certificate), NID_commonName, common_name,
                            sizeof common_name);
  X509_free(certificate);
  EXPECT_STREQ(common_name, "localhost");

  asio::write(tls, asio::buffer(std::string("EHLO me\r\n")));
  EXPECT_EQ(read_reply(tls).find("STARTTLS"), std::string::npos);
  asio::write(tls, asio::buffer(std::string("AUTH PLAIN AHVzZXIAcGFzcw==\r\n")));
  EXPECT_EQ(read_reply(tls), "235 Authentication successful\r\n");
  asio::write(tls, asio::buffer(std::string("MAIL FROM:<a@b.c>\r\nRCPT TO:<x@y.z>\r\nDATA\r\n")));
  // Pipelined commands, answered in one write.
  EXPECT_EQ(read_reply(tls),
            "250 Accepted\r\n250 Accepted\r\n354 End data with <CR><LF>.<CR><LF>\r\n");
  asio::write(tls, asio::buffer(std::string("Subject: secret\r\n\r\nover TLS\r\n.\r\nQUIT\r\n")));
  EXPECT_EQ(read_reply(tls), "250 OK: message queued\r\n221 Bye\r\n");
  const auto received = server.received();
  ASSERT_EQ(received.size(), 1u);
  EXPECT_EQ(received[0].mail.data, "Subject: secret\r\n\r\nover TLS\r\n");
}

TEST(SmtpConnection, TimesOutAnIdleClient) {
  SmtpLimits limits;
  limits.idle_timeout = std::chrono::milliseconds(0);
  Server server(limits);
  Client client(server.port());
  // The greeting, then the sweep's 421 within a couple of seconds, then the end.
  const std::string replies = client.replies(2);
  EXPECT_EQ(replies.substr(0, 4), "220 ");
  EXPECT_NE(replies.find("421 Timeout - closing connection\r\n"), std::string::npos);
  EXPECT_TRUE(client.closed_by_server());
}

TEST(SmtpConnection, ClosingTheListenerDropsItsClients) {
  Server server;
  Client client(server.port());
  EXPECT_EQ(client.replies(1).substr(0, 4), "220 ");
  server.close();
  EXPECT_TRUE(client.closed_by_server());
}

TEST(SmtpConnection, ShowsAddressesAsMountebankDoes) {
  EXPECT_EQ(mountebank_address(asio::ip::make_address("::ffff:127.0.0.1")), "127.0.0.1");
  EXPECT_EQ(mountebank_address(asio::ip::make_address("10.1.2.3")), "10.1.2.3");
  EXPECT_EQ(mountebank_address(asio::ip::make_address("::1")), "::1");
  EXPECT_EQ(mountebank_address(asio::ip::make_address("2001:DB8:0:0:0:0:2:1")), "2001:db8::2:1");
}

}  // namespace
}  // namespace rift::smtp
