// A TLS handshake without sockets, for unit tests of server contexts: two SSL objects wired back
// to back through a BIO pair, driven until both finish or fail.
#pragma once

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

namespace rift::testing {

struct Handshake {
  bool client_ok = false;
  bool server_ok = false;
  unsigned long client_error = 0;
  unsigned long server_error = 0;
};

inline Handshake run_handshake(SSL* client, SSL* server) {
  BIO* client_end = nullptr;
  BIO* server_end = nullptr;
  Handshake result;
  if (BIO_new_bio_pair(&client_end, 0, &server_end, 0) != 1) return result;
  SSL_set_bio(client, client_end, client_end);
  SSL_set_bio(server, server_end, server_end);
  SSL_set_connect_state(client);
  SSL_set_accept_state(server);
  bool client_done = false;
  bool server_done = false;
  const auto step = [](SSL* ssl, bool& done, bool& ok, unsigned long& error) {
    if (done) return;
    const int rc = SSL_do_handshake(ssl);
    if (rc == 1) {
      done = ok = true;
      return;
    }
    const int reason = SSL_get_error(ssl, rc);
    if (reason != SSL_ERROR_WANT_READ && reason != SSL_ERROR_WANT_WRITE) {
      done = true;
      error = ERR_peek_error();
    }
    ERR_clear_error();
  };
  for (int round = 0; round < 50 && !(client_done && server_done); ++round) {
    step(client, client_done, result.client_ok, result.client_error);
    step(server, server_done, result.server_ok, result.server_error);
  }
  return result;
}

}  // namespace rift::testing
