#include "runtime/imposter/tls.h"

#include <openssl/err.h>

#include <cctype>
#include <string_view>

#include "runtime/imposter/default_certificate.h"

namespace rift {
namespace {

// Node's OSSL_ERROR_CODES_MAP (src/crypto/crypto_util.cc): the libraries whose name goes into
// the code.
std::string_view library_prefix(int library) {
  switch (library) {
#define RIFT_NODE_LIB(name) \
  case ERR_LIB_##name:      \
    return #name "_";
    RIFT_NODE_LIB(SYS)
    RIFT_NODE_LIB(BN)
    RIFT_NODE_LIB(RSA)
    RIFT_NODE_LIB(DH)
    RIFT_NODE_LIB(EVP)
    RIFT_NODE_LIB(BUF)
    RIFT_NODE_LIB(OBJ)
    RIFT_NODE_LIB(PEM)
    RIFT_NODE_LIB(DSA)
    RIFT_NODE_LIB(X509)
    RIFT_NODE_LIB(ASN1)
    RIFT_NODE_LIB(CONF)
    RIFT_NODE_LIB(CRYPTO)
    RIFT_NODE_LIB(EC)
    RIFT_NODE_LIB(SSL)
    RIFT_NODE_LIB(BIO)
    RIFT_NODE_LIB(PKCS7)
    RIFT_NODE_LIB(X509V3)
    RIFT_NODE_LIB(PKCS12)
    RIFT_NODE_LIB(RAND)
    RIFT_NODE_LIB(DSO)
    RIFT_NODE_LIB(ENGINE)
    RIFT_NODE_LIB(OCSP)
    RIFT_NODE_LIB(UI)
    RIFT_NODE_LIB(COMP)
    RIFT_NODE_LIB(ECDSA)
    RIFT_NODE_LIB(ECDH)
    RIFT_NODE_LIB(OSSL_STORE)
    RIFT_NODE_LIB(FIPS)
    RIFT_NODE_LIB(CMS)
    RIFT_NODE_LIB(TS)
    RIFT_NODE_LIB(HMAC)
    RIFT_NODE_LIB(CT)
    RIFT_NODE_LIB(ASYNC)
    RIFT_NODE_LIB(KDF)
    RIFT_NODE_LIB(SM2)
    RIFT_NODE_LIB(USER)
#undef RIFT_NODE_LIB
    default:
      return "";
  }
}

}  // namespace

std::string tls_key_in_use(const ir::TlsOptions& tls) {
  return tls.key ? *tls.key : std::string(default_tls_key());
}

std::string tls_cert_in_use(const ir::TlsOptions& tls) {
  return tls.cert ? *tls.cert : std::string(default_tls_cert());
}

std::string node_error_code(const http::TlsError& error) {
  const std::string_view library = library_prefix(error.library);
  std::string code = library == "SSL_" ? "ERR_" : "ERR_OSSL_";
  code += library == "SSL_" ? "SSL_" : library;
  for (const char c : error.reason) {
    code += c == ' ' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return code;
}

std::variant<std::shared_ptr<http::TlsContext>, MbError> make_imposter_tls(
    const ir::TlsOptions& tls, bool offer_h2) {
  http::TlsSettings settings;
  settings.key_pem = tls_key_in_use(tls);
  settings.cert_pem = tls_cert_in_use(tls);
  settings.ca_pems = tls.ca;
  settings.require_client_cert = tls.mutual_auth && tls.reject_unauthorized;
  settings.ciphers = tls.ciphers;
  settings.offer_h2 = offer_h2;
  auto made = http::make_tls_context(settings);
  if (auto* error = std::get_if<http::TlsError>(&made)) {
    // Node's error carries no message of its own in Mountebank's JSON; Rift adds OpenSSL's text
    // (what Node's error.message holds) so the body keeps the documented {code, message} shape.
    return MbError{node_error_code(*error), error->error_text, std::nullopt};
  }
  return std::get<std::shared_ptr<http::TlsContext>>(std::move(made));
}

MbErrors tls_creation_errors(const ir::Imposter& imposter) {
  if (imposter.protocol != "https") return {};
  auto made = make_imposter_tls(imposter.tls);
  if (auto* error = std::get_if<MbError>(&made)) return {*error};
  return {};
}

}  // namespace rift
