#include "runtime/http/tls_context.h"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <array>

namespace rift::http {
namespace {

struct BioFree {
  void operator()(BIO* bio) const { BIO_free(bio); }
};
struct X509Free {
  void operator()(X509* cert) const { X509_free(cert); }
};
struct KeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
using Bio = std::unique_ptr<BIO, BioFree>;
using Certificate = std::unique_ptr<X509, X509Free>;
using PrivateKey = std::unique_ptr<EVP_PKEY, KeyFree>;

Bio memory_bio(const std::string& pem) {
  return Bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
}

// An encrypted key must fail rather than make OpenSSL prompt on the terminal for a password.
int no_password(char*, int, int, void*) {
  return 0;
}

// The earliest queued error (the one Node reports), then an empty queue for the next step.
TlsError take_error() {
  const unsigned long code = ERR_get_error();
  ERR_clear_error();
  TlsError error;
  if (code == 0) {
    error.reason = "unknown error";
    error.error_text = "error:00000000:lib(0)::unknown error";
    return error;
  }
  error.library = ERR_GET_LIB(code);
  const char* reason = ERR_reason_error_string(code);
  error.reason = reason ? reason : "unknown error";
  std::array<char, 256> text{};
  ERR_error_string_n(code, text.data(), text.size());
  error.error_text = text.data();
  return error;
}

// Node's addCACert: every certificate in every PEM becomes a trust anchor and a CA name sent
// in the certificate request. Text that holds no certificate adds nothing and is no error.
void add_trust_anchors(SSL_CTX* context, const std::vector<std::string>& pems) {
  X509_STORE* store = SSL_CTX_get_cert_store(context);
  for (const std::string& pem : pems) {
    Bio bio = memory_bio(pem);
    while (Certificate cert{PEM_read_bio_X509_AUX(bio.get(), nullptr, no_password, nullptr)}) {
      X509_STORE_add_cert(store, cert.get());
      SSL_CTX_add_client_CA(context, cert.get());
    }
  }
  ERR_clear_error();
}

// The first certificate is the server's; any that follow are sent as its chain.
bool use_certificate_chain(SSL_CTX* context, const std::string& pem) {
  Bio bio = memory_bio(pem);
  Certificate leaf{PEM_read_bio_X509_AUX(bio.get(), nullptr, no_password, nullptr)};
  if (!leaf || SSL_CTX_use_certificate(context, leaf.get()) != 1) return false;
  while (Certificate extra{PEM_read_bio_X509(bio.get(), nullptr, no_password, nullptr)}) {
    if (SSL_CTX_add1_chain_cert(context, extra.get()) != 1) return false;
  }
  // The loop ends at the end of the text ("no start line"); anything else is a broken chain.
  const unsigned long last = ERR_peek_last_error();
  if (last != 0 &&
      !(ERR_GET_LIB(last) == ERR_LIB_PEM && ERR_GET_REASON(last) == PEM_R_NO_START_LINE)) {
    return false;
  }
  ERR_clear_error();
  return true;
}

bool use_private_key(SSL_CTX* context, const std::string& pem) {
  Bio bio = memory_bio(pem);
  PrivateKey key{PEM_read_bio_PrivateKey(bio.get(), nullptr, no_password, nullptr)};
  // SSL_CTX_use_PrivateKey also checks that the key matches the certificate.
  return key && SSL_CTX_use_PrivateKey(context, key.get()) == 1;
}

// Node's processCiphers + setCipherSuites + setCiphers.
bool use_ciphers(SSL_CTX* context, const std::string& ciphers) {
  std::string tls12;
  std::string tls13;
  size_t start = 0;
  while (start <= ciphers.size()) {
    size_t end = ciphers.find(':', start);
    if (end == std::string::npos) end = ciphers.size();
    const std::string name = ciphers.substr(start, end - start);
    if (!name.empty()) {
      std::string& list = name.starts_with("TLS_") ? tls13 : tls12;
      list += (list.empty() ? "" : ":") + name;
    }
    start = end + 1;
  }
  if (!tls13.empty() && SSL_CTX_set_ciphersuites(context, tls13.c_str()) != 1) return false;
  if (SSL_CTX_set_cipher_list(context, tls12.c_str()) != 1) {
    // Only TLS 1.3 suites named: the TLS 1.2 list is deliberately empty, as in Node.
    if (tls12.empty() && !tls13.empty()) {
      ERR_clear_error();
      return true;
    }
    return false;
  }
  return true;
}

// ALPN (RFC 7301): h2 when the client offers it, else http/1.1; a client offering neither gets
// no ALPN answer and speaks HTTP/1.1 as it would without ALPN.
int select_protocol(SSL*, const unsigned char** out, unsigned char* out_size,
                    const unsigned char* offered, unsigned int offered_size, void*) {
  for (std::string_view wanted : {std::string_view("h2"), std::string_view("http/1.1")}) {
    for (unsigned int at = 0; at < offered_size;) {
      const unsigned int size = offered[at];
      if (at + 1 + size > offered_size) break;
      if (std::string_view(reinterpret_cast<const char*>(offered + at + 1), size) == wanted) {
        *out = offered + at + 1;
        *out_size = static_cast<unsigned char>(size);
        return SSL_TLSEXT_ERR_OK;
      }
      at += 1 + size;
    }
  }
  return SSL_TLSEXT_ERR_NOACK;
}

}  // namespace

void offer_h2(SSL_CTX* context) {
  SSL_CTX_set_alpn_select_cb(context, select_protocol, nullptr);
}

std::variant<std::shared_ptr<TlsContext>, TlsError> make_tls_context(const TlsSettings& settings) {
  ERR_clear_error();
  auto context = std::make_shared<TlsContext>(TlsContext::tls_server);
  SSL_CTX* native = context->native_handle();
  context->set_options(TlsContext::default_workarounds | TlsContext::no_compression);
  if (SSL_CTX_set_min_proto_version(native, TLS1_2_VERSION) != 1) return take_error();

  if (settings.ca_pems) {
    add_trust_anchors(native, *settings.ca_pems);
  } else if (SSL_CTX_set_default_verify_paths(native) != 1) {
    ERR_clear_error();  // no system store: client certificates then simply never verify
  }
  if (!use_certificate_chain(native, settings.cert_pem)) return take_error();
  if (!use_private_key(native, settings.key_pem)) return take_error();
  if (settings.ciphers && !use_ciphers(native, *settings.ciphers)) return take_error();

  if (settings.require_client_cert) {
    SSL_CTX_set_verify(native, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
  }
  if (settings.offer_h2) offer_h2(native);
  // Resumed sessions must carry a context id once peers are verified, or resumption fails.
  static constexpr unsigned char kSessionContext[] = "rift";
  SSL_CTX_set_session_id_context(native, kSessionContext, sizeof kSessionContext - 1);
  return context;
}

}  // namespace rift::http
