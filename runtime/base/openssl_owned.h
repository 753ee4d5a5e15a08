// The one way the runtime owns an OpenSSL object: a std::unique_ptr whose deleter is the library's
// own free function, so every exit path frees it.
#pragma once

#include <memory>

namespace rift {

template <auto Free>
struct OpenSslFree {
  template <typename T>
  void operator()(T* object) const noexcept {
    Free(object);
  }
};

// Owned<BIO, BIO_free>, Owned<SSL_CTX, SSL_CTX_free> ...
template <typename T, auto Free>
using Owned = std::unique_ptr<T, OpenSslFree<Free>>;

}  // namespace rift
