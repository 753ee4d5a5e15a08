// OpenSSL behind the `crypto` module of the inject sandbox (node_globals.cpp holds its JavaScript).
#pragma once

#include <js/TypeDecls.h>

namespace rift::script {

// Defines __riftHash(algorithm, key | null, data) and __riftRandomBytes(n) on `global`. Bytes
// cross as strings of char codes 0-255 ("binary" strings), so no typed-array API is needed.
bool define_crypto_natives(JSContext* context, JS::HandleObject global);

}  // namespace rift::script
