// Per-host TLS server contexts for the intercepting proxy, minted from its CA on first use and
// kept in a bounded LRU, so a client that opens many connections to one host pays for one
// signature, and a crawl over millions of hosts cannot grow memory without bound.
//
// Lifetime: an SSL switched to a cached context holds its own OpenSSL reference to it
// (SSL_set_SSL_CTX up-refs), so evicting an entry only drops the cache's reference and never
// frees a context an open connection uses. The cache itself must outlive every handshake on a
// base context it was installed on (the callback's argument is `this`).
//
// Switching contexts replaces the certificate and key, and also the context OpenSSL consults
// for some later callbacks, ALPN selection among them: the minted contexts set no ALPN, so a
// connection switched by SNI or use_leaf() negotiates none (HTTP/1.1).
#pragma once

#include <openssl/types.h>

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "runtime/intercept/certificate_authority.h"

namespace rift::intercept {

class LeafCache {
 public:
  static constexpr std::size_t kDefaultCapacity = 1024;

  // A capacity of 0 is taken as 1: the context just minted must survive until it is returned.
  // `offer_h2`: the leaves answer ALPN with h2 when the client offers it (HTTP/2 in the tunnel).
  explicit LeafCache(std::shared_ptr<const CertificateAuthority> authority,
                     std::size_t capacity = kDefaultCapacity, bool offer_h2 = false);
  LeafCache(const LeafCache&) = delete;
  LeafCache& operator=(const LeafCache&) = delete;
  ~LeafCache();

  // A TLS 1.2+ server context presenting a leaf for `host` with the CA as its chain; null when
  // !CertificateAuthority::valid_host(host) or minting fails. Hosts differing only in case (or
  // IP literals only in spelling) share one context. Thread-safe.
  std::shared_ptr<SSL_CTX> context_for(std::string_view host);

  // Makes every SSL created from `base` present the leaf for the SNI its client sends. An SNI
  // that is no valid host fails the handshake (unrecognized_name); without SNI the SSL keeps
  // the certificate it has (its base's, or one given by use_leaf()).
  void install_sni(SSL_CTX* base);

  // Before the handshake: presents the leaf for `host` on `ssl` unless its client's SNI names
  // another, for clients that send none (a CONNECT to an IP address). False when `host` is
  // invalid or minting fails.
  bool use_leaf(SSL* ssl, std::string_view host);

  std::size_t size() const;
  std::uint64_t minted() const;  // cache misses that produced a context
  std::uint64_t hits() const;
  const CertificateAuthority& authority() const noexcept { return *authority_; }

 private:
  struct Entry {
    std::string host;
    std::shared_ptr<SSL_CTX> context;
  };

  static int on_servername(SSL* ssl, int* alert, void* arg);
  std::shared_ptr<SSL_CTX> make_context(const std::string& host) const;

  const std::shared_ptr<const CertificateAuthority> authority_;
  const std::size_t capacity_;
  const bool offer_h2_;
  mutable std::mutex mutex_;
  std::list<Entry> recent_;  // most recently used first
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;
  std::uint64_t minted_ = 0;
  std::uint64_t hits_ = 0;
};

}  // namespace rift::intercept
