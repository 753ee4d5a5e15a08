// An https imposter's TLS settings (docs/mountebank-semantics.md §2.1, §2.2) turned into a
// server context.
//
// Mountebank hands `key`, `cert`, `ca` and `ciphers` to Node's https.createServer and requests a
// client certificate only when `mutualAuth` and `rejectUnauthorized` are both true. A setting
// OpenSSL refuses fails creation with Node's error, e.g. {"code":"ERR_OSSL_PEM_NO_START_LINE"}.
#pragma once

#include <memory>
#include <variant>

#include "compiler/errors.h"
#include "compiler/ir.h"
#include "runtime/http/tls_context.h"

namespace rift {

// The key and certificate an imposter serves: its own, else the built-in pair.
std::string tls_key_in_use(const ir::TlsOptions& tls);
std::string tls_cert_in_use(const ir::TlsOptions& tls);

// `offer_h2`: ALPN may choose HTTP/2 (docs/http2.md).
std::variant<std::shared_ptr<http::TlsContext>, MbError> make_imposter_tls(
    const ir::TlsOptions& tls, bool offer_h2 = false);

// The creation errors of an imposter's TLS settings (none for http): a dry run of the above.
MbErrors tls_creation_errors(const ir::Imposter& imposter);

// Node's code for an OpenSSL error: "ERR_SSL_<REASON>" for the SSL library,
// "ERR_OSSL_<LIB>_<REASON>" for the others it names, "ERR_OSSL_<REASON>" otherwise.
std::string node_error_code(const http::TlsError& error);

}  // namespace rift
