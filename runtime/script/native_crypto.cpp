// Digests, HMACs and random bytes for require('crypto'): hand-written hashes in JavaScript would
// be slow and one more thing to get wrong, and OpenSSL is linked already for TLS.
#include "runtime/script/native_crypto.h"

#include <js/CallArgs.h>
#include <js/Conversions.h>
#include <js/String.h>
#include <jsapi.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <cmath>
#include <optional>
#include <string>

namespace rift::script {
namespace {

// A binary string's char codes as bytes; nullopt (with an exception pending) when one is above
// 255, which the JavaScript side never passes.
std::optional<std::string> bytes_of(JSContext* context, JS::HandleValue value) {
  JS::RootedString text(context, JS::ToString(context, value));
  if (!text) return std::nullopt;
  std::string bytes(JS_GetStringLength(text), '\0');
  if (!JS_EncodeStringToBuffer(context, text, bytes.data(), bytes.size())) return std::nullopt;
  return bytes;
}

bool return_bytes(JSContext* context, JS::CallArgs& args, const unsigned char* data, size_t size) {
  JSString* string = JS_NewStringCopyN(context, reinterpret_cast<const char*>(data), size);
  if (string == nullptr) return false;
  args.rval().setString(string);
  return true;
}

// __riftHash(algorithm, key, data): the digest, or the HMAC when key is not null; null for an
// algorithm OpenSSL does not know, so the caller can throw Node's own message.
bool hash_native(JSContext* context, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  if (args.length() < 3) {
    JS_ReportErrorASCII(context, "__riftHash(algorithm, key, data)");
    return false;
  }
  const auto algorithm = bytes_of(context, args[0]);
  const auto data = bytes_of(context, args[2]);
  if (!algorithm || !data) return false;
  const EVP_MD* md = EVP_get_digestbyname(algorithm->c_str());
  if (md == nullptr) {
    args.rval().setNull();
    return true;
  }
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  const auto* input = reinterpret_cast<const unsigned char*>(data->data());
  if (args[1].isNullOrUndefined()) {
    if (EVP_Digest(input, data->size(), out, &size, md, nullptr) != 1) {
      JS_ReportErrorASCII(context, "the digest failed");
      return false;
    }
  } else {
    const auto key = bytes_of(context, args[1]);
    if (!key) return false;
    if (HMAC(md, key->data(), static_cast<int>(key->size()), input, data->size(), out, &size) ==
        nullptr) {
      JS_ReportErrorASCII(context, "the HMAC failed");
      return false;
    }
  }
  return return_bytes(context, args, out, size);
}

// __riftRandomBytes(n): n bytes from OpenSSL's CSPRNG.
bool random_native(JSContext* context, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  double count = 0;
  if (args.length() > 0 && !JS::ToNumber(context, args[0], &count)) return false;
  // Node's own ceiling for randomBytes (2^31 - 1); the JavaScript side checks it too.
  if (!(count >= 0) || count > 2147483647.0) {
    JS_ReportErrorASCII(context, "the byte count is out of range");
    return false;
  }
  std::string bytes(static_cast<size_t>(std::floor(count)), '\0');
  if (!bytes.empty() && RAND_bytes(reinterpret_cast<unsigned char*>(bytes.data()),
                                   static_cast<int>(bytes.size())) != 1) {
    JS_ReportErrorASCII(context, "OpenSSL could not produce random bytes");
    return false;
  }
  return return_bytes(context, args, reinterpret_cast<const unsigned char*>(bytes.data()),
                      bytes.size());
}

}  // namespace

bool define_crypto_natives(JSContext* context, JS::HandleObject global) {
  return JS_DefineFunction(context, global, "__riftHash", hash_native, 3, 0) &&
         JS_DefineFunction(context, global, "__riftRandomBytes", random_native, 1, 0);
}

}  // namespace rift::script
