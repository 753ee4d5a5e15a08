// What a listener that terminates CONNECT tunnels (the intercept proxy, docs/intercept.md) needs
// of whoever owns the certificates: the network layer switches the connection to TLS, the owner
// says which certificate each tunnel's handshake presents. An interface, so runtime/http knows
// nothing of certificate authorities.
#pragma once

#include <string_view>

#include "runtime/http/tls_context.h"

typedef struct ssl_st SSL;

namespace rift::http {

class TunnelTerminator {
 public:
  virtual ~TunnelTerminator() = default;
  // The context every tunnel's handshake starts from (its SNI callback may switch it).
  virtual TlsContext& context() = 0;
  // Called before the handshake with the CONNECT target's host, so a client that sends no SNI
  // (one that dialled an address) still gets a certificate naming what it asked for. False: no
  // certificate can name `host`; the tunnel is refused.
  virtual bool prepare(SSL* ssl, std::string_view host) = 0;
};

}  // namespace rift::http
