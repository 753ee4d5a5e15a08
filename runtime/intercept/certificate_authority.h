// The certificate authority of the intercepting proxy: the one key pair a user trusts so that
// the certificates the proxy forges for every host it terminates TLS for are accepted.
//
// It is either generated (a throwaway CA for a session) or loaded from the user's PEM (a CA
// already installed in a trust store). Leaves are minted per host on demand from worker
// threads, so minting is const, lock-free and cheap: every leaf carries the same key, made once
// per authority (mitmproxy does the same), and only the certificate is signed per host.
#pragma once

#include <openssl/types.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace rift::intercept {

struct X509Free {
  void operator()(X509* cert) const noexcept;
};
struct PkeyFree {
  void operator()(EVP_PKEY* key) const noexcept;
};
using X509Ptr = std::unique_ptr<X509, X509Free>;
using PkeyPtr = std::unique_ptr<EVP_PKEY, PkeyFree>;

class CertificateAuthority {
 public:
  // A fresh CA: EC P-256, self-signed, "CN=Rift Intercept CA, O=Rift", valid for ten years.
  static std::variant<CertificateAuthority, std::string> generate();
  // A user's CA (RSA or EC key, unencrypted PEM). The error names the part that is wrong.
  static std::variant<CertificateAuthority, std::string> from_pem(std::string_view cert_pem,
                                                                  std::string_view key_pem);

  CertificateAuthority(CertificateAuthority&&) noexcept = default;
  CertificateAuthority& operator=(CertificateAuthority&&) noexcept = default;
  ~CertificateAuthority();

  // Re-encoded by OpenSSL: the certificate alone, the key as unencrypted PKCS#8.
  const std::string& cert_pem() const noexcept { return cert_pem_; }
  const std::string& key_pem() const noexcept { return key_pem_; }
  std::string cert_der() const;

  // Borrowed, never null, alive as long as this authority. OpenSSL's API takes these non-const
  // (it only up-refs or reads them); callers must not modify them.
  X509* certificate() const noexcept { return cert_.get(); }
  EVP_PKEY* leaf_key() const noexcept { return leaf_key_.get(); }

  // A server certificate for `host` (DNS name or IP literal, any case) signed by this CA, for
  // leaf_key(). Null when the host is not valid_host() or OpenSSL fails. Thread-safe.
  X509Ptr mint_leaf(std::string_view host) const;

  // What a client may name in SNI or CONNECT: an IPv4/IPv6 literal, or a DNS name of 1..253
  // characters in labels of 1..63 [A-Za-z0-9_-] not starting or ending with '-'. No wildcard,
  // no trailing dot.
  static bool valid_host(std::string_view host);
  // The spelling leaves and caches are keyed by: DNS names lower-cased, IP literals in their
  // canonical text form ("0:0::1" -> "::1"). nullopt when !valid_host(host).
  static std::optional<std::string> normalize_host(std::string_view host);

 private:
  CertificateAuthority(X509Ptr cert, PkeyPtr key, PkeyPtr leaf_key, std::string cert_pem,
                       std::string key_pem);
  static std::variant<CertificateAuthority, std::string> assemble(X509Ptr cert, PkeyPtr key);

  X509Ptr cert_;
  PkeyPtr key_;
  PkeyPtr leaf_key_;
  std::string cert_pem_;
  std::string key_pem_;
};

}  // namespace rift::intercept
