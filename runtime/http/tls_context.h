// TLS server contexts for https listeners: OpenSSL 3 through Boost.Asio's ssl layer.
//
// One context per imposter, shared by every worker's listener on its port (creating SSL
// objects from one SSL_CTX on several threads is safe). It knows nothing of Mountebank: the
// runtime decides which key, certificate and client-certificate policy to ask for.
#pragma once

#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "runtime/http/asio_types.h"

typedef struct ssl_ctx_st SSL_CTX;

namespace rift::http {

using TlsContext = boost::asio::ssl::context;
using TlsStream = boost::asio::ssl::stream<Socket>;

struct TlsSettings {
  std::string key_pem;
  std::string cert_pem;  // the certificate, optionally followed by the chain to send with it
  // Trust anchors for client certificates; unset: the system's default store.
  std::optional<std::vector<std::string>> ca_pems;
  // Ask every client for a certificate and fail the handshake without one that chains to the
  // trust anchors.
  bool require_client_cert = false;
  // ':'-separated OpenSSL names; entries starting with "TLS_" are TLS 1.3 suites, the rest
  // TLS 1.2 ciphers (how Node splits its `ciphers` option). Unset: OpenSSL's defaults.
  std::optional<std::string> ciphers;
  // Answer ALPN with h2 when the client offers it (the listener must then have Limits::http2).
  bool offer_h2 = false;
};

// The first OpenSSL error of a failed set-up step.
struct TlsError {
  int library = 0;         // ERR_GET_LIB, e.g. ERR_LIB_PEM
  std::string reason;      // e.g. "no start line"
  std::string error_text;  // ERR_error_string_n, e.g. "error:0480006C:PEM routines::no start line"
};

// Makes `context` answer ALPN with h2 when the client offers it, else http/1.1 (the listener
// must then have Limits::http2). Also for contexts made elsewhere (the intercept proxy's leaves).
void offer_h2(SSL_CTX* context);

// A context for TLS 1.2 and later. Steps run in Node's order (trust anchors, certificate, key,
// ciphers), so the error reported for a bad configuration is the one Node would report.
std::variant<std::shared_ptr<TlsContext>, TlsError> make_tls_context(const TlsSettings& settings);

}  // namespace rift::http
