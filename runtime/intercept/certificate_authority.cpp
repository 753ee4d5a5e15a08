// Generating, loading and signing with the intercept CA: every X.509 detail of the certificates
// the proxy forges lives here, so the TLS plumbing above only handles finished objects.
#include "runtime/intercept/certificate_authority.h"

#include <arpa/inet.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <climits>
#include <cstdint>
#include <ctime>
#include <utility>

#include "runtime/base/openssl_owned.h"

namespace rift::intercept {

void X509Free::operator()(X509* cert) const noexcept {
  X509_free(cert);
}
void PkeyFree::operator()(EVP_PKEY* key) const noexcept {
  EVP_PKEY_free(key);
}

namespace {

using BioPtr = Owned<BIO, BIO_free>;
using BnPtr = Owned<BIGNUM, BN_free>;
using PkeyCtxPtr = Owned<EVP_PKEY_CTX, EVP_PKEY_CTX_free>;
using ExtensionPtr = Owned<X509_EXTENSION, X509_EXTENSION_free>;
using GeneralNamesPtr = Owned<GENERAL_NAMES, GENERAL_NAMES_free>;
using GeneralNamePtr = Owned<GENERAL_NAME, GENERAL_NAME_free>;
using OctetStringPtr = Owned<ASN1_OCTET_STRING, ASN1_OCTET_STRING_free>;
using Ia5StringPtr = Owned<ASN1_IA5STRING, ASN1_IA5STRING_free>;
using AuthorityKeyIdPtr = Owned<AUTHORITY_KEYID, AUTHORITY_KEYID_free>;

constexpr std::size_t kMaxCommonName = 64;  // ub-common-name: OpenSSL refuses a longer CN
constexpr long kOneDay = 24 * 60 * 60;
constexpr long kLeafDays = 397;  // the CA/Browser Forum limit that Apple and Chrome enforce

// The earliest queued error is the cause; the rest are callers reporting that they failed too.
std::string take_error() {
  const unsigned long code = ERR_peek_error();
  ERR_clear_error();
  if (code == 0) return "unknown error";
  const char* reason = ERR_reason_error_string(code);
  if (reason != nullptr) return reason;
  std::array<char, 256> text{};
  ERR_error_string_n(code, text.data(), text.size());
  return text.data();
}

// OpenSSL 3 reads keys through its decoders, which report only "unsupported" for every way a
// key can be wrong; what lies beneath (ASN.1, a failed decryption) or the text itself says more.
std::string key_error(std::string_view pem) {
  std::string reason;
  unsigned long code = 0;
  while ((code = ERR_get_error()) != 0) {
    const char* text = ERR_reason_error_string(code);
    if (reason.empty() && text != nullptr && ERR_GET_LIB(code) != ERR_LIB_OSSL_DECODER) {
      reason = text;
    }
  }
  if (pem.find("-----BEGIN ") == std::string_view::npos) return "no start line";
  if (pem.find("ENCRYPTED") != std::string_view::npos) return "encrypted keys are not supported";
  return reason.empty() ? "no supported private key found" : reason;
}

// A read-only BIO over the caller's text. OpenSSL rejects a null buffer outright, which would
// report "passed a null parameter" instead of what is wrong with an empty PEM.
BioPtr read_bio(std::string_view text) {
  if (text.size() > static_cast<std::size_t>(INT_MAX)) return nullptr;
  static constexpr char kEmpty[] = "";
  return BioPtr(
      BIO_new_mem_buf(text.empty() ? kEmpty : text.data(), static_cast<int>(text.size())));
}

std::optional<std::string> bio_contents(BIO* bio) {
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  if (size < 0 || (size > 0 && data == nullptr)) return std::nullopt;
  return std::string(data, static_cast<std::size_t>(size));
}

std::optional<std::string> encode_cert(X509* cert) {
  BioPtr bio(BIO_new(BIO_s_mem()));
  if (!bio || PEM_write_bio_X509(bio.get(), cert) != 1) return std::nullopt;
  return bio_contents(bio.get());
}

std::optional<std::string> encode_key(EVP_PKEY* key) {
  BioPtr bio(BIO_new(BIO_s_mem()));
  if (!bio ||
      PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1) {
    return std::nullopt;
  }
  return bio_contents(bio.get());
}

// An encrypted key must fail rather than make OpenSSL prompt on the terminal for a password.
int no_password(char*, int, int, void*) {
  return 0;
}

PkeyPtr generate_p256() {
  // Not EVP_EC_gen: that macro passes the curve through varargs behind a const-dropping cast.
  PkeyCtxPtr context(EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr));
  EVP_PKEY* key = nullptr;
  if (!context || EVP_PKEY_keygen_init(context.get()) != 1 ||
      EVP_PKEY_CTX_set_group_name(context.get(), "P-256") != 1 ||
      EVP_PKEY_generate(context.get(), &key) != 1) {
    return nullptr;
  }
  return PkeyPtr(key);
}

// 127 random bits: positive with the top bit clear, so DER needs no sign byte and the serial
// stays within RFC 5280's 20 octets; unpredictable, so two leaves never share one.
bool set_random_serial(X509* cert) {
  std::array<unsigned char, 16> bytes{};
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) return false;
  bytes[0] &= 0x7F;
  BnPtr number(BN_bin2bn(bytes.data(), static_cast<int>(bytes.size()), nullptr));
  return number && BN_to_ASN1_INTEGER(number.get(), X509_get_serialNumber(cert)) != nullptr;
}

bool add_name_entry(X509_NAME* name, const char* field, std::string_view value) {
  return X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8,
                                    reinterpret_cast<const unsigned char*>(value.data()),
                                    static_cast<int>(value.size()), -1, 0) == 1;
}

// An extension in openssl.cnf syntax, for the fixed values that syntax states most plainly.
bool add_extension(X509* cert, X509* issuer, int nid, const char* value) {
  X509V3_CTX context;
  X509V3_set_ctx_nodb(&context);
  X509V3_set_ctx(&context, issuer, cert, nullptr, nullptr, 0);
  ExtensionPtr extension(X509V3_EXT_conf_nid(nullptr, &context, nid, value));
  return extension && X509_add_ext(cert, extension.get(), -1) == 1;
}

bool is_ip_literal(const std::string& host, std::array<unsigned char, 16>& address, int& family) {
  if (inet_pton(AF_INET, host.c_str(), address.data()) == 1) {
    family = AF_INET;
    return true;
  }
  if (inet_pton(AF_INET6, host.c_str(), address.data()) == 1) {
    family = AF_INET6;
    return true;
  }
  return false;
}

// Built by hand rather than from "DNS:<host>" text, so no host can smuggle in a second name
// through the config syntax's commas.
bool add_subject_alt_name(X509* cert, const std::string& host) {
  GeneralNamesPtr names(GENERAL_NAMES_new());
  GeneralNamePtr name(GENERAL_NAME_new());
  if (!names || !name) return false;
  std::array<unsigned char, 16> address{};
  int family = 0;
  if (is_ip_literal(host, address, family)) {
    OctetStringPtr octets(ASN1_OCTET_STRING_new());
    if (!octets ||
        ASN1_OCTET_STRING_set(octets.get(), address.data(), family == AF_INET ? 4 : 16) != 1) {
      return false;
    }
    GENERAL_NAME_set0_value(name.get(), GEN_IPADD, octets.release());
  } else {
    Ia5StringPtr dns(ASN1_IA5STRING_new());
    if (!dns || ASN1_STRING_set(dns.get(), host.data(), static_cast<int>(host.size())) != 1) {
      return false;
    }
    GENERAL_NAME_set0_value(name.get(), GEN_DNS, dns.release());
  }
  if (sk_GENERAL_NAME_push(names.get(), name.get()) <= 0) return false;
  name.release();  // the stack owns it now
  return X509_add1_ext_i2d(cert, NID_subject_alt_name, names.get(), 0, X509V3_ADD_DEFAULT) == 1;
}

// The CA's own subjectKeyIdentifier when it has one, so chain builders match leaf to CA by key;
// otherwise RFC 5280's method 1 (SHA-1 of the public key bits), which is what a user CA made
// without the extension would be identified by.
bool add_authority_key_id(X509* cert, X509* issuer) {
  AuthorityKeyIdPtr key_id(AUTHORITY_KEYID_new());
  OctetStringPtr octets;
  if (const ASN1_OCTET_STRING* subject_key_id = X509_get0_subject_key_id(issuer)) {
    octets.reset(ASN1_OCTET_STRING_dup(subject_key_id));
  } else {
    const ASN1_BIT_STRING* key_bits = X509_get0_pubkey_bitstr(issuer);
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int digest_size = 0;
    octets.reset(ASN1_OCTET_STRING_new());
    if (key_bits == nullptr || !octets ||
        EVP_Digest(ASN1_STRING_get0_data(key_bits), static_cast<std::size_t>(key_bits->length),
                   digest.data(), &digest_size, EVP_sha1(), nullptr) != 1 ||
        ASN1_OCTET_STRING_set(octets.get(), digest.data(), static_cast<int>(digest_size)) != 1) {
      return false;
    }
  }
  if (!key_id || !octets) return false;
  key_id->keyid = octets.release();
  return X509_add1_ext_i2d(cert, NID_authority_key_identifier, key_id.get(), 0,
                           X509V3_ADD_DEFAULT) == 1;
}

// Ten calendar years, not 3650 days; a Feb 29 start ends on Feb 28.
std::time_t ten_years_from(std::chrono::system_clock::time_point now) {
  using namespace std::chrono;
  const sys_days today = floor<days>(now);
  year_month_day end = year_month_day(today) + years(10);
  if (!end.ok()) end = end.year() / end.month() / last;
  return system_clock::to_time_t(time_point_cast<seconds>(sys_days(end) + (now - today)));
}

// EdDSA signs the message itself and takes no separate digest; everything else gets SHA-256.
const EVP_MD* signing_digest(EVP_PKEY* key) {
  const int type = EVP_PKEY_get_base_id(key);
  return type == EVP_PKEY_ED25519 || type == EVP_PKEY_ED448 ? nullptr : EVP_sha256();
}

bool valid_label(std::string_view label) {
  if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-') {
    return false;
  }
  return std::all_of(label.begin(), label.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_';
  });
}

bool valid_dns_name(std::string_view host) {
  if (host.empty() || host.size() > 253) return false;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = host.find('.', start);
    if (!valid_label(host.substr(start, dot == std::string_view::npos ? dot : dot - start))) {
      return false;
    }
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

}  // namespace

CertificateAuthority::CertificateAuthority(X509Ptr cert, PkeyPtr key, PkeyPtr leaf_key,
                                           std::string cert_pem, std::string key_pem)
    : cert_(std::move(cert)),
      key_(std::move(key)),
      leaf_key_(std::move(leaf_key)),
      cert_pem_(std::move(cert_pem)),
      key_pem_(std::move(key_pem)) {}

CertificateAuthority::~CertificateAuthority() = default;

std::variant<CertificateAuthority, std::string> CertificateAuthority::assemble(X509Ptr cert,
                                                                               PkeyPtr key) {
  PkeyPtr leaf_key = generate_p256();
  if (!leaf_key) return "cannot generate the leaf key: " + take_error();
  std::optional<std::string> cert_pem = encode_cert(cert.get());
  std::optional<std::string> key_pem = encode_key(key.get());
  if (!cert_pem || !key_pem) return "cannot encode the CA as PEM: " + take_error();
  // OpenSSL parses a certificate's extensions lazily, on first use, into the X509 itself. Doing
  // it now means the worker threads that mint leaves concurrently only ever read it.
  X509_check_purpose(cert.get(), -1, 0);
  return CertificateAuthority(std::move(cert), std::move(key), std::move(leaf_key),
                              std::move(*cert_pem), std::move(*key_pem));
}

std::variant<CertificateAuthority, std::string> CertificateAuthority::generate() {
  PkeyPtr key = generate_p256();
  X509Ptr cert(X509_new());
  if (!key || !cert) return "cannot generate the CA: " + take_error();
  X509* raw = cert.get();
  X509_NAME* name = X509_get_subject_name(raw);
  const auto now = std::chrono::system_clock::now();
  std::time_t not_after = ten_years_from(now);
  const bool built =
      X509_set_version(raw, X509_VERSION_3) == 1 && set_random_serial(raw) &&
      add_name_entry(name, "CN", "Rift Intercept CA") && add_name_entry(name, "O", "Rift") &&
      X509_set_issuer_name(raw, name) == 1 &&
      // A day of slack: a client whose clock runs behind must not see a CA from the future.
      X509_gmtime_adj(X509_getm_notBefore(raw), -kOneDay) != nullptr &&
      ASN1_TIME_set(X509_getm_notAfter(raw), not_after) != nullptr &&
      X509_set_pubkey(raw, key.get()) == 1 &&
      add_extension(raw, raw, NID_basic_constraints, "critical,CA:TRUE") &&
      add_extension(raw, raw, NID_key_usage, "critical,keyCertSign,cRLSign") &&
      add_extension(raw, raw, NID_subject_key_identifier, "hash") &&
      X509_sign(raw, key.get(), EVP_sha256()) > 0;
  if (!built) return "cannot generate the CA: " + take_error();
  return assemble(std::move(cert), std::move(key));
}

std::variant<CertificateAuthority, std::string> CertificateAuthority::from_pem(
    std::string_view cert_pem, std::string_view key_pem) {
  ERR_clear_error();
  BioPtr cert_bio = read_bio(cert_pem);
  X509Ptr cert(cert_bio ? PEM_read_bio_X509(cert_bio.get(), nullptr, no_password, nullptr)
                        : nullptr);
  if (!cert) return "invalid CA certificate PEM: " + take_error();
  BioPtr key_bio = read_bio(key_pem);
  PkeyPtr key(key_bio ? PEM_read_bio_PrivateKey(key_bio.get(), nullptr, no_password, nullptr)
                      : nullptr);
  if (!key) return "invalid CA key PEM: " + key_error(key_pem);
  if (X509_check_private_key(cert.get(), key.get()) != 1) {
    ERR_clear_error();
    return std::string("CA key does not match the CA certificate");
  }
  // Clients refuse every leaf signed by a certificate that may not sign: say so at start.
  if (X509_check_ca(cert.get()) == 0) {
    return std::string(
        "the CA certificate may not sign certificates (it needs basicConstraints CA:TRUE)");
  }
  return assemble(std::move(cert), std::move(key));
}

std::string CertificateAuthority::cert_der() const {
  const int size = i2d_X509(cert_.get(), nullptr);
  if (size <= 0) return {};
  std::string der(static_cast<std::size_t>(size), '\0');
  auto* out = reinterpret_cast<unsigned char*>(der.data());
  if (i2d_X509(cert_.get(), &out) != size) return {};
  return der;
}

X509Ptr CertificateAuthority::mint_leaf(std::string_view requested) const {
  const std::optional<std::string> host = normalize_host(requested);
  if (!host) return nullptr;
  X509Ptr cert(X509_new());
  if (!cert) return nullptr;
  X509* raw = cert.get();
  X509* issuer = cert_.get();
  X509_NAME* name = X509_get_subject_name(raw);
  const std::string_view common_name = std::string_view(*host).substr(0, kMaxCommonName);
  bool built = X509_set_version(raw, X509_VERSION_3) == 1 && set_random_serial(raw) &&
               add_name_entry(name, "CN", common_name) &&
               X509_set_issuer_name(raw, X509_get_subject_name(issuer)) == 1 &&
               X509_gmtime_adj(X509_getm_notBefore(raw), -kOneDay) != nullptr &&
               X509_time_adj_ex(X509_getm_notAfter(raw), kLeafDays, 0, nullptr) != nullptr;
  // Clients check each certificate's dates on its own, but a leaf outliving its issuer is
  // rejected by some (and is nonsense); one older than its issuer is harmless to clamp too.
  if (built && ASN1_TIME_compare(X509_get0_notAfter(raw), X509_get0_notAfter(issuer)) > 0) {
    built = X509_set1_notAfter(raw, X509_get0_notAfter(issuer)) == 1;
  }
  if (built && ASN1_TIME_compare(X509_get0_notBefore(raw), X509_get0_notBefore(issuer)) < 0) {
    built = X509_set1_notBefore(raw, X509_get0_notBefore(issuer)) == 1;
  }
  built = built && X509_set_pubkey(raw, leaf_key_.get()) == 1 && add_subject_alt_name(raw, *host) &&
          add_extension(raw, issuer, NID_basic_constraints, "CA:FALSE") &&
          add_extension(raw, issuer, NID_key_usage, "critical,digitalSignature,keyEncipherment") &&
          add_extension(raw, issuer, NID_ext_key_usage, "serverAuth") &&
          add_authority_key_id(raw, issuer) &&
          X509_sign(raw, key_.get(), signing_digest(key_.get())) > 0;
  if (!built) {
    // The queue is per thread; a worker must not carry this failure into its next TLS call.
    ERR_clear_error();
    return nullptr;
  }
  return cert;
}

bool CertificateAuthority::valid_host(std::string_view host) {
  return normalize_host(host).has_value();
}

std::optional<std::string> CertificateAuthority::normalize_host(std::string_view host) {
  // Longer than any DNS name and any IP literal; also keeps the copy below bounded.
  if (host.empty() || host.size() > 253) return std::nullopt;
  // inet_pton reads up to a NUL: "1.2.3.4\0evil" must not pass as 1.2.3.4.
  if (host.find('\0') != std::string_view::npos) return std::nullopt;
  std::string text(host);
  std::array<unsigned char, 16> address{};
  int family = 0;
  if (is_ip_literal(text, address, family)) {
    std::array<char, INET6_ADDRSTRLEN> canonical{};
    if (inet_ntop(family, address.data(), canonical.data(), canonical.size()) == nullptr) {
      return std::nullopt;
    }
    return std::string(canonical.data());
  }
  if (!valid_dns_name(host)) return std::nullopt;
  std::transform(text.begin(), text.end(), text.begin(), [](char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  });
  return text;
}

}  // namespace rift::intercept
