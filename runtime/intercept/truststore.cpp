// Java trust stores for the intercept CA: PKCS#12 through OpenSSL, JKS written by hand (no
// library writes Sun's format, and it is a few fixed fields and one digest).
#include "runtime/intercept/truststore.h"

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/pkcs12.h>
#include <openssl/x509.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "runtime/base/openssl_owned.h"

namespace rift::intercept {
namespace {

// Oracle's "trusted key usage" bag attribute: Java's PKCS12KeyStore loads a certificate bag as
// a trustedCertEntry only when it carries this, and keytool writes anyExtendedKeyUsage in it.
constexpr const char* kTrustedKeyUsageOid = "2.16.840.1.113894.746875.1.1";
constexpr const char* kAnyExtendedKeyUsageOid = "2.5.29.37.0";
constexpr int kMacIterations = 2048;

constexpr std::uint32_t kJksMagic = 0xFEEDFEED;
constexpr std::uint32_t kJksVersion = 2;
constexpr std::uint32_t kJksTrustedCertTag = 2;
// Sun's JKS salts its integrity digest with this phrase (sun.security.provider.JavaKeyStore).
constexpr std::string_view kJksWhitener = "Mighty Aphrodite";

struct SafeBagsFree {
  void operator()(STACK_OF(PKCS12_SAFEBAG) * bags) const noexcept {
    sk_PKCS12_SAFEBAG_pop_free(bags, PKCS12_SAFEBAG_free);
  }
};
struct SafesFree {
  void operator()(STACK_OF(PKCS7) * safes) const noexcept { sk_PKCS7_pop_free(safes, PKCS7_free); }
};

[[noreturn]] void fail(const char* what) {
  const unsigned long code = ERR_peek_error();
  ERR_clear_error();
  const char* reason = code != 0 ? ERR_reason_error_string(code) : nullptr;
  throw std::runtime_error(std::string(what) + ": " + (reason ? reason : "unknown error"));
}

// UTF-8 to UTF-16 code units, the way Java would hold the same text in a String: every byte
// that does not start a well-formed sequence (overlong forms and surrogates included) is one
// U+FFFD.
std::vector<char16_t> utf16(std::string_view text) {
  std::vector<char16_t> units;
  units.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const auto byte = [&](std::size_t at) { return static_cast<unsigned char>(text[at]); };
    const unsigned char lead = byte(i);
    std::size_t length = 0;
    char32_t point = 0;
    char32_t minimum = 0;
    if (lead < 0x80) {
      length = 1;
      point = lead;
    } else if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
      point = lead & 0x1F;
      minimum = 0x80;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      point = lead & 0x0F;
      minimum = 0x800;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      point = lead & 0x07;
      minimum = 0x10000;
    }
    bool well_formed = length > 0 && i + length <= text.size();
    for (std::size_t k = 1; well_formed && k < length; ++k) {
      well_formed = (byte(i + k) & 0xC0) == 0x80;
      point = (point << 6) | (byte(i + k) & 0x3F);
    }
    well_formed = well_formed && point >= minimum && point <= 0x10FFFF &&
                  !(point >= 0xD800 && point <= 0xDFFF);
    if (!well_formed) {
      units.push_back(u'\uFFFD');
      ++i;
      continue;
    }
    if (point >= 0x10000) {
      point -= 0x10000;
      units.push_back(static_cast<char16_t>(0xD800 + (point >> 10)));
      units.push_back(static_cast<char16_t>(0xDC00 + (point & 0x3FF)));
    } else {
      units.push_back(static_cast<char16_t>(point));
    }
    i += length;
  }
  return units;
}

void put_u16(std::string& out, std::uint16_t value) {
  out.push_back(static_cast<char>(value >> 8));
  out.push_back(static_cast<char>(value & 0xFF));
}

void put_u32(std::string& out, std::uint32_t value) {
  put_u16(out, static_cast<std::uint16_t>(value >> 16));
  put_u16(out, static_cast<std::uint16_t>(value & 0xFFFF));
}

void put_u64(std::string& out, std::uint64_t value) {
  put_u32(out, static_cast<std::uint32_t>(value >> 32));
  put_u32(out, static_cast<std::uint32_t>(value & 0xFFFFFFFF));
}

// DataOutputStream.writeUTF: Java's "modified UTF-8" of the UTF-16 units (NUL as two bytes,
// each surrogate encoded on its own), after a u2 byte count.
void put_java_utf(std::string& out, std::string_view text) {
  std::string bytes;
  for (const char16_t unit : utf16(text)) {
    if (unit != 0 && unit < 0x80) {
      bytes.push_back(static_cast<char>(unit));
    } else if (unit < 0x800) {
      bytes.push_back(static_cast<char>(0xC0 | (unit >> 6)));
      bytes.push_back(static_cast<char>(0x80 | (unit & 0x3F)));
    } else {
      bytes.push_back(static_cast<char>(0xE0 | (unit >> 12)));
      bytes.push_back(static_cast<char>(0x80 | ((unit >> 6) & 0x3F)));
      bytes.push_back(static_cast<char>(0x80 | (unit & 0x3F)));
    }
  }
  if (bytes.size() > 0xFFFF) throw std::runtime_error("JKS string longer than 65535 bytes");
  put_u16(out, static_cast<std::uint16_t>(bytes.size()));
  out += bytes;
}

}  // namespace

std::string export_pkcs12(const CertificateAuthority& ca, std::string_view password) {
  ERR_clear_error();
  STACK_OF(PKCS12_SAFEBAG)* raw_bags = nullptr;
  PKCS12_SAFEBAG* bag = PKCS12_add_cert(&raw_bags, ca.certificate());
  std::unique_ptr<STACK_OF(PKCS12_SAFEBAG), SafeBagsFree> bags(raw_bags);  // owns `bag`
  if (bag == nullptr) fail("cannot add the CA to a PKCS#12 bag");
  if (PKCS12_add_friendlyname_asc(bag, kTrustStoreAlias.data(),
                                  static_cast<int>(kTrustStoreAlias.size())) != 1) {
    fail("cannot name the PKCS#12 certificate bag");
  }
  Owned<ASN1_OBJECT, ASN1_OBJECT_free> any_usage(OBJ_txt2obj(kAnyExtendedKeyUsageOid, 1));
  if (!any_usage) fail("cannot encode anyExtendedKeyUsage");
  // Length -1 makes OpenSSL store a copy of the ASN1_OBJECT itself rather than a string of
  // `len` bytes of the given type.
  if (PKCS12_add1_attr_by_txt(bag, kTrustedKeyUsageOid, V_ASN1_OBJECT,
                              reinterpret_cast<const unsigned char*>(any_usage.get()), -1) != 1) {
    fail("cannot mark the PKCS#12 certificate as trusted");
  }
  // Unencrypted: a trust store holds only public data, and the MAC still guards its integrity.
  Owned<PKCS7, PKCS7_free> safe(PKCS12_pack_p7data(bags.get()));
  if (!safe) fail("cannot pack the PKCS#12 bags");
  std::unique_ptr<STACK_OF(PKCS7), SafesFree> safes(sk_PKCS7_new_null());
  if (!safes || sk_PKCS7_push(safes.get(), safe.get()) <= 0) fail("cannot collect PKCS#12 safes");
  safe.release();  // the stack owns it now
  Owned<PKCS12, PKCS12_free> p12(PKCS12_add_safes(safes.get(), 0));
  if (!p12) fail("cannot assemble the PKCS#12 file");
  const std::string secret(password);  // NUL-terminated, never a null pointer when empty
  if (PKCS12_set_mac(p12.get(), secret.c_str(), static_cast<int>(secret.size()), nullptr, 0,
                     kMacIterations, EVP_sha256()) != 1) {
    fail("cannot compute the PKCS#12 MAC");
  }
  const int size = i2d_PKCS12(p12.get(), nullptr);
  if (size <= 0) fail("cannot encode the PKCS#12 file");
  std::string der(static_cast<std::size_t>(size), '\0');
  auto* out = reinterpret_cast<unsigned char*>(der.data());
  if (i2d_PKCS12(p12.get(), &out) != size) fail("cannot encode the PKCS#12 file");
  return der;
}

std::string export_jks(const CertificateAuthority& ca, std::string_view password) {
  ERR_clear_error();
  const std::string der = ca.cert_der();
  if (der.empty()) fail("cannot encode the CA certificate");
  const auto now =
      std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());

  std::string store;
  put_u32(store, kJksMagic);
  put_u32(store, kJksVersion);
  put_u32(store, 1);  // entries
  put_u32(store, kJksTrustedCertTag);
  put_java_utf(store, kTrustStoreAlias);
  put_u64(store, static_cast<std::uint64_t>(now.time_since_epoch().count()));
  put_java_utf(store, "X.509");
  put_u32(store, static_cast<std::uint32_t>(der.size()));
  store += der;

  std::string secret;
  for (const char16_t unit : utf16(password)) put_u16(secret, unit);
  Owned<EVP_MD_CTX, EVP_MD_CTX_free> sha1(EVP_MD_CTX_new());
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int digest_size = 0;
  if (!sha1 || EVP_DigestInit_ex(sha1.get(), EVP_sha1(), nullptr) != 1 ||
      EVP_DigestUpdate(sha1.get(), secret.data(), secret.size()) != 1 ||
      EVP_DigestUpdate(sha1.get(), kJksWhitener.data(), kJksWhitener.size()) != 1 ||
      EVP_DigestUpdate(sha1.get(), store.data(), store.size()) != 1 ||
      EVP_DigestFinal_ex(sha1.get(), digest, &digest_size) != 1) {
    fail("cannot compute the JKS digest");
  }
  store.append(reinterpret_cast<const char*>(digest), digest_size);
  return store;
}

}  // namespace rift::intercept
