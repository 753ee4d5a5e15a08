// TLS contexts (runtime/http/tls_context), an imposter's TLS settings (runtime/imposter/tls) and
// a TLS listener over a real socket on 127.0.0.1.
#include "runtime/imposter/tls.h"

#include <openssl/err.h>
#include <sys/socket.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <fstream>
#include <future>
#include <sstream>
#include <thread>

#include "gtest/gtest.h"
#include "runtime/http/server.h"
#include "runtime/http/tls_context.h"
#include "runtime/imposter/default_certificate.h"

namespace rift {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

// The PEM fixtures the differential corpus uses (tests/diff/tls).
std::string fixture(const std::string& name) {
  std::ifstream in(std::string(RIFT_SOURCE_DIR) + "/tests/diff/tls/" + name + ".pem");
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_FALSE(text.str().empty()) << name;
  return text.str();
}

http::TlsSettings default_settings() {
  http::TlsSettings settings;
  settings.key_pem = std::string(default_tls_key());
  settings.cert_pem = std::string(default_tls_cert());
  return settings;
}

std::string failure_code(const http::TlsSettings& settings) {
  auto made = http::make_tls_context(settings);
  if (!std::holds_alternative<http::TlsError>(made)) return "no error";
  return node_error_code(std::get<http::TlsError>(made));
}

TEST(TlsContextTest, BuiltInPairLoads) {
  EXPECT_TRUE(std::holds_alternative<std::shared_ptr<http::TlsContext>>(
      http::make_tls_context(default_settings())));
  EXPECT_TRUE(default_tls_cert().starts_with("-----BEGIN CERTIFICATE-----\n"));
  EXPECT_TRUE(default_tls_key().ends_with("-----END PRIVATE KEY-----\n"));
}

TEST(TlsContextTest, RefusalsCarryNodesErrorCodes) {
  http::TlsSettings bad_cert = default_settings();
  bad_cert.cert_pem = "not a certificate";
  EXPECT_EQ(failure_code(bad_cert), "ERR_OSSL_PEM_NO_START_LINE");

  http::TlsSettings mismatch = default_settings();
  mismatch.key_pem = fixture("client-key");
  EXPECT_EQ(failure_code(mismatch), "ERR_OSSL_X509_KEY_VALUES_MISMATCH");

  http::TlsSettings bad_ciphers = default_settings();
  bad_ciphers.ciphers = "NO-SUCH-CIPHER";
  EXPECT_EQ(failure_code(bad_ciphers), "ERR_SSL_NO_CIPHER_MATCH");
}

TEST(TlsContextTest, CipherListsSplitLikeNode) {
  http::TlsSettings tls13_only = default_settings();
  tls13_only.ciphers = "TLS_AES_128_GCM_SHA256";
  EXPECT_EQ(failure_code(tls13_only), "no error");
  http::TlsSettings mixed = default_settings();
  mixed.ciphers = "ECDHE-RSA-AES128-GCM-SHA256:BOGUS:TLS_AES_256_GCM_SHA384";
  EXPECT_EQ(failure_code(mixed), "no error");
  http::TlsSettings bad_suite = default_settings();
  bad_suite.ciphers = "TLS_NO_SUCH_SUITE";
  EXPECT_NE(failure_code(bad_suite), "no error");
}

TEST(TlsContextTest, TrustAnchorTextWithoutCertificatesIsNoError) {
  http::TlsSettings settings = default_settings();
  settings.ca_pems = std::vector<std::string>{"garbage"};
  settings.require_client_cert = true;
  EXPECT_EQ(failure_code(settings), "no error");
}

TEST(ImposterTlsTest, NodeErrorCodeNamesTheLibrariesNodeNames) {
  EXPECT_EQ(node_error_code({ERR_LIB_SSL, "no cipher match", ""}), "ERR_SSL_NO_CIPHER_MATCH");
  EXPECT_EQ(node_error_code({ERR_LIB_X509, "key values mismatch", ""}),
            "ERR_OSSL_X509_KEY_VALUES_MISMATCH");
  // OpenSSL 3's decoder library is not in Node's table.
  EXPECT_EQ(node_error_code({ERR_LIB_OSSL_DECODER, "unsupported", ""}), "ERR_OSSL_UNSUPPORTED");
}

TEST(ImposterTlsTest, CreationErrorsOnlyForHttpsWithBadSettings) {
  ir::Imposter imposter;
  imposter.protocol = "http";
  imposter.tls.key = "junk";
  EXPECT_TRUE(tls_creation_errors(imposter).empty());
  imposter.protocol = "https";
  const MbErrors errors = tls_creation_errors(imposter);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_TRUE(errors[0].code.starts_with("ERR_OSSL_")) << errors[0].code;
  EXPECT_FALSE(errors[0].message.empty());
  imposter.tls = {};
  EXPECT_TRUE(tls_creation_errors(imposter).empty());
  EXPECT_EQ(tls_key_in_use(imposter.tls), default_tls_key());
  imposter.tls.cert = fixture("server-cert");
  EXPECT_EQ(tls_cert_in_use(imposter.tls), fixture("server-cert"));
}

// --- a TLS listener over a real socket ---

std::shared_ptr<const http::Handler> echo_handler() {
  return std::make_shared<const http::Handler>([](http::Message&& message, http::Respond respond) {
    const std::string body = message.method + " " + message.target;
    http::Reply reply;
    reply.bytes = "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(body.size()) +
                  "\r\nConnection: close\r\n\r\n" + body;
    reply.close = true;  // then the server sends close_notify, which ends the client's reads
    respond(std::move(reply));
  });
}

// One request over TLS; returns everything read until the server closes, or the error text.
std::string tls_request(uint16_t port, const std::string& client = "") {
  asio::io_context context;
  asio::ssl::context tls(asio::ssl::context::tls_client);
  tls.set_verify_mode(asio::ssl::verify_none);
  if (!client.empty()) {
    tls.use_certificate_chain(asio::buffer(fixture(client + "-cert")));
    tls.use_private_key(asio::buffer(fixture(client + "-key")), asio::ssl::context::pem);
  }
  asio::ssl::stream<tcp::socket> stream(context, tls);
  stream.lowest_layer().connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  // A server that never answers must fail the test, not hang it: asio's blocking reads retry
  // after SO_RCVTIMEO, so a watchdog shuts the socket down instead, which ends any read.
  std::promise<void> done;
  std::thread watchdog([finished = done.get_future(), fd = stream.lowest_layer().native_handle()] {
    if (finished.wait_for(std::chrono::seconds(5)) == std::future_status::timeout) {
      ::shutdown(fd, SHUT_RDWR);
    }
  });
  struct Joiner {
    std::promise<void>& done;
    std::thread& watchdog;
    ~Joiner() {
      done.set_value();
      watchdog.join();
    }
  } joiner{done, watchdog};
  boost::system::error_code error;
  stream.handshake(asio::ssl::stream_base::client, error);
  if (error) return "error: " + error.message();
  asio::write(stream, asio::buffer(std::string("GET /tls HTTP/1.1\r\nHost: x\r\n\r\n")), error);
  if (error) return "error: " + error.message();
  std::string received;
  std::array<char, 4096> buffer;
  for (;;) {
    const size_t size = stream.read_some(asio::buffer(buffer), error);
    received.append(buffer.data(), size);
    if (error) break;
  }
  if (received.empty()) return "error: " + error.message();
  return received;
}

class TlsListenerTest : public ::testing::Test {
 protected:
  uint16_t listen(const http::TlsSettings& settings) {
    auto made = http::make_tls_context(settings);
    auto context = std::get<std::shared_ptr<http::TlsContext>>(std::move(made));
    auto bound = server_.listen("127.0.0.1", 0, echo_handler(), http::Limits{},
                                /*on_control=*/false, std::move(context));
    return std::get<uint16_t>(bound);
  }

  http::Server server_{2};
};

TEST_F(TlsListenerTest, ServesHttpOverTls) {
  const uint16_t port = listen(default_settings());
  const std::string answer = tls_request(port);
  EXPECT_TRUE(answer.starts_with("HTTP/1.1 200 OK\r\n")) << answer;
  EXPECT_TRUE(answer.ends_with("GET /tls")) << answer;
}

TEST_F(TlsListenerTest, RequiredClientCertificateMustChainToTheTrustAnchors) {
  http::TlsSettings settings = default_settings();
  settings.ca_pems = std::vector<std::string>{fixture("ca-cert")};
  settings.require_client_cert = true;
  const uint16_t port = listen(settings);
  EXPECT_TRUE(tls_request(port).starts_with("error: ")) << tls_request(port);
  EXPECT_TRUE(tls_request(port, "stranger").starts_with("error: "));
  EXPECT_TRUE(tls_request(port, "client").ends_with("GET /tls"));
}

}  // namespace
}  // namespace rift
