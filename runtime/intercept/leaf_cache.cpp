// The LRU of minted server contexts and the OpenSSL servername hook that picks one per
// handshake.
#include "runtime/intercept/leaf_cache.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "runtime/base/openssl_owned.h"
#include "runtime/http/tls_context.h"

namespace rift::intercept {
LeafCache::LeafCache(std::shared_ptr<const CertificateAuthority> authority, std::size_t capacity,
                     bool offer_h2)
    : authority_(std::move(authority)),
      capacity_(std::max<std::size_t>(capacity, 1)),
      offer_h2_(offer_h2) {}

LeafCache::~LeafCache() = default;

std::shared_ptr<SSL_CTX> LeafCache::make_context(const std::string& host) const {
  X509Ptr leaf = authority_->mint_leaf(host);
  Owned<SSL_CTX, SSL_CTX_free> context(SSL_CTX_new(TLS_server_method()));
  const bool built = leaf && context &&
                     SSL_CTX_set_min_proto_version(context.get(), TLS1_2_VERSION) == 1 &&
                     SSL_CTX_use_certificate(context.get(), leaf.get()) == 1 &&
                     SSL_CTX_use_PrivateKey(context.get(), authority_->leaf_key()) == 1 &&
                     SSL_CTX_add1_chain_cert(context.get(), authority_->certificate()) == 1 &&
                     SSL_CTX_check_private_key(context.get()) == 1;
  if (!built) {
    // Called from handshakes: a stale error would be blamed on the worker's next TLS call.
    ERR_clear_error();
    return nullptr;
  }
  if (offer_h2_) http::offer_h2(context.get());
  return std::shared_ptr<SSL_CTX>(std::move(context));
}

std::shared_ptr<SSL_CTX> LeafCache::context_for(std::string_view requested) {
  const std::optional<std::string> host = CertificateAuthority::normalize_host(requested);
  if (!host) return nullptr;
  {
    std::lock_guard lock(mutex_);
    if (auto found = index_.find(*host); found != index_.end()) {
      recent_.splice(recent_.begin(), recent_, found->second);
      ++hits_;
      return found->second->context;
    }
  }
  // Minted unlocked: signing and SSL_CTX_new take far longer than a lookup, and the workers'
  // hits on other hosts must not queue behind it. Two threads missing the same host at once
  // both mint; the second keeps the first's context so every caller sees one.
  std::shared_ptr<SSL_CTX> context = make_context(*host);
  if (!context) return nullptr;
  // Declared before the lock so the evicted contexts are freed after it is released.
  std::vector<std::shared_ptr<SSL_CTX>> evicted;
  std::lock_guard lock(mutex_);
  ++minted_;
  if (auto found = index_.find(*host); found != index_.end()) {
    recent_.splice(recent_.begin(), recent_, found->second);
    return found->second->context;
  }
  recent_.push_front(Entry{*host, context});
  try {
    index_.emplace(*host, recent_.begin());
  } catch (...) {
    recent_.pop_front();
    throw;
  }
  while (recent_.size() > capacity_) {
    evicted.push_back(std::move(recent_.back().context));
    index_.erase(recent_.back().host);
    recent_.pop_back();
  }
  return context;
}

bool LeafCache::use_leaf(SSL* ssl, std::string_view host) {
  if (ssl == nullptr) return false;
  const std::shared_ptr<SSL_CTX> context = context_for(host);
  if (!context) return false;
  // The SSL takes its own reference here; ours may go (and the cache may evict) right after.
  if (SSL_set_SSL_CTX(ssl, context.get()) != context.get()) {
    ERR_clear_error();
    return false;
  }
  return true;
}

int LeafCache::on_servername(SSL* ssl, int* alert, void* arg) {
  const char* name = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name);
  if (name == nullptr) return SSL_TLSEXT_ERR_NOACK;
  // This runs inside OpenSSL's C stack: nothing may escape, and a failure must end the
  // handshake rather than present a certificate for the wrong name.
  try {
    if (!CertificateAuthority::valid_host(name)) {
      *alert = SSL_AD_UNRECOGNIZED_NAME;
      return SSL_TLSEXT_ERR_ALERT_FATAL;
    }
    if (static_cast<LeafCache*>(arg)->use_leaf(ssl, name)) return SSL_TLSEXT_ERR_OK;
  } catch (...) {
  }
  *alert = SSL_AD_INTERNAL_ERROR;
  return SSL_TLSEXT_ERR_ALERT_FATAL;
}

void LeafCache::install_sni(SSL_CTX* base) {
  SSL_CTX_set_tlsext_servername_callback(base, &LeafCache::on_servername);
  SSL_CTX_set_tlsext_servername_arg(base, this);
}

std::size_t LeafCache::size() const {
  std::lock_guard lock(mutex_);
  return recent_.size();
}

std::uint64_t LeafCache::minted() const {
  std::lock_guard lock(mutex_);
  return minted_;
}

std::uint64_t LeafCache::hits() const {
  std::lock_guard lock(mutex_);
  return hits_;
}

}  // namespace rift::intercept
