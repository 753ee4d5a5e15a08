// The front door's TLS (docs/front-door.md#tls): one listener, many certificates, the one
// presented chosen by the name the client sends in SNI, as nginx picks a server block or Envoy a
// filter chain. An exact name wins over a wildcard (`*.a.test` covers one label, as certificate
// wildcards do); a name no certificate claims, or no SNI at all, gets the default certificate.
//
// The certificates are a published snapshot, like the route table: PUT /front-door/certificates
// and POST /admin/reload swap it on the control thread while handshakes on the workers read it.
// A handshake that has started keeps the context it was given (OpenSSL holds its own reference).
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "compiler/ir.h"
#include "runtime/front_door/certificate_specs.h"
#include "runtime/http/tls_context.h"

namespace rift::front_door {

// A checked, indexed set of certificates: every context built, every name claimed once.
class CertificateTable {
 public:
  // Refused whole: a PEM that does not parse, a key that does not match its certificate, a bad
  // host, a host claimed by two certificates, two defaults. `offer_h2`: ALPN answers h2.
  static std::variant<std::shared_ptr<const CertificateTable>, std::string> build(
      const std::vector<CertificateSpec>& specs, bool offer_h2);

  // The context to present for `server_name` (any case; empty: the client sent no SNI).
  SSL_CTX* select(std::string_view server_name) const;
  // {"certificates": [{"hosts", "namesFrom", "subject", "notAfter", "default", "source"}]}
  ir::Json describe() const;

 private:
  struct Entry {
    std::shared_ptr<http::TlsContext> context;
    std::vector<std::string> hosts;
    bool hosts_given = false;
    std::string subject;
    std::string not_after;
    std::string source;
  };

  std::vector<Entry> entries_;
  std::unordered_map<std::string, std::size_t> exact_;
  std::unordered_map<std::string, std::size_t> wildcard_;  // keyed by what follows "*."
  std::size_t default_ = 0;
};

class SniCertificates {
 public:
  // `offer_h2`: the listener answers ALPN with h2 (tables built for it must say so too).
  SniCertificates(std::shared_ptr<const CertificateTable> table, bool offer_h2);
  SniCertificates(const SniCertificates&) = delete;
  SniCertificates& operator=(const SniCertificates&) = delete;

  // The listener's context: it presents no certificate of its own but switches every handshake
  // to the table's choice. Must not outlive this object (the callback's argument is `this`).
  std::shared_ptr<http::TlsContext> listener_context();
  bool offers_h2() const noexcept { return offer_h2_; }

  void publish(std::shared_ptr<const CertificateTable> table);
  std::shared_ptr<const CertificateTable> table() const;

 private:
  static int on_servername(SSL* ssl, int* alert, void* arg);

  std::atomic<std::shared_ptr<const CertificateTable>> table_;
  const bool offer_h2_;
};

}  // namespace rift::front_door
