// The intercept proxy's crypto (runtime/intercept/{certificate_authority,leaf_cache,truststore}):
// the CA and its leaves checked with OpenSSL's own verifier, real TLS handshakes over in-memory
// BIO pairs through the SNI hook, and the Java trust stores parsed back field by field.
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/base/openssl_owned.h"
#include "runtime/intercept/certificate_authority.h"
#include "runtime/intercept/leaf_cache.h"
#include "runtime/intercept/truststore.h"
#include "tests/unit/runtime/tls_handshake.h"

namespace rift::intercept {
namespace {

using SslCtxPtr = Owned<SSL_CTX, SSL_CTX_free>;
using SslPtr = Owned<SSL, SSL_free>;
using StorePtr = Owned<X509_STORE, X509_STORE_free>;
using StoreCtxPtr = Owned<X509_STORE_CTX, X509_STORE_CTX_free>;
using BioPtr = Owned<BIO, BIO_free>;
using Pkcs12Ptr = Owned<PKCS12, PKCS12_free>;
using BasicConstraintsPtr = Owned<BASIC_CONSTRAINTS, BASIC_CONSTRAINTS_free>;
using GeneralNamesPtr = Owned<GENERAL_NAMES, GENERAL_NAMES_free>;
using MdCtxPtr = Owned<EVP_MD_CTX, EVP_MD_CTX_free>;

constexpr std::string_view kAttributeOid = "2.16.840.1.113894.746875.1.1";

std::shared_ptr<const CertificateAuthority> generated_ca() {
  auto result = CertificateAuthority::generate();
  if (auto* error = std::get_if<std::string>(&result)) {
    ADD_FAILURE() << *error;
    return nullptr;
  }
  return std::make_shared<const CertificateAuthority>(
      std::move(std::get<CertificateAuthority>(result)));
}

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(RIFT_SOURCE_DIR) + "/tests/diff/tls/" + name + ".pem");
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_FALSE(text.str().empty()) << name;
  return text.str();
}

std::string text_of(const ASN1_STRING* string) {
  return std::string(reinterpret_cast<const char*>(ASN1_STRING_get0_data(string)),
                     static_cast<std::size_t>(ASN1_STRING_length(string)));
}

std::string common_name(X509* cert) {
  X509_NAME* name = X509_get_subject_name(cert);
  const int index = X509_NAME_get_index_by_NID(name, NID_commonName, -1);
  if (index < 0) return {};
  return text_of(X509_NAME_ENTRY_get_data(X509_NAME_get_entry(name, index)));
}

bool is_critical(X509* cert, int nid) {
  const int index = X509_get_ext_by_NID(cert, nid, -1);
  return index >= 0 && X509_EXTENSION_get_critical(X509_get_ext(cert, index)) == 1;
}

// X509_verify_cert with the CA as the only trust anchor, at the current time.
int verify_with(X509* anchor, X509* leaf, bool as_server = true) {
  StorePtr store(X509_STORE_new());
  StoreCtxPtr context(X509_STORE_CTX_new());
  if (!store || !context || X509_STORE_add_cert(store.get(), anchor) != 1 ||
      X509_STORE_CTX_init(context.get(), store.get(), leaf, nullptr) != 1) {
    return -1;
  }
  if (as_server) X509_STORE_CTX_set_purpose(context.get(), X509_PURPOSE_SSL_SERVER);
  if (X509_verify_cert(context.get()) == 1) return X509_V_OK;
  return X509_STORE_CTX_get_error(context.get());
}

std::string der_of(X509* cert) {
  unsigned char* out = nullptr;
  const int size = i2d_X509(cert, &out);
  std::string der(reinterpret_cast<const char*>(out), static_cast<std::size_t>(size));
  OPENSSL_free(out);
  return der;
}

std::string bio_text(BIO* bio) {
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  return std::string(data, static_cast<std::size_t>(size));
}

// A self-signed EC CA valid for 30 days and without a subjectKeyIdentifier: the user CA cases
// the generated one never exercises.
std::pair<std::string, std::string> short_lived_ca_pem() {
  Owned<EVP_PKEY, EVP_PKEY_free> key(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"));
  X509Ptr cert(X509_new());
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("Short CA"), -1, -1, 0);
  X509_set_issuer_name(cert.get(), name);
  X509_set_version(cert.get(), X509_VERSION_3);
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), 7);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), 0);
  X509_time_adj_ex(X509_getm_notAfter(cert.get()), 30, 0, nullptr);
  X509_set_pubkey(cert.get(), key.get());
  X509V3_CTX v3;
  X509V3_set_ctx_nodb(&v3);
  X509V3_set_ctx(&v3, cert.get(), cert.get(), nullptr, nullptr, 0);
  X509_EXTENSION* constraints =
      X509V3_EXT_conf_nid(nullptr, &v3, NID_basic_constraints, "critical,CA:TRUE");
  X509_add_ext(cert.get(), constraints, -1);
  X509_EXTENSION_free(constraints);
  EXPECT_GT(X509_sign(cert.get(), key.get(), EVP_sha256()), 0);
  BioPtr cert_bio(BIO_new(BIO_s_mem()));
  BioPtr key_bio(BIO_new(BIO_s_mem()));
  PEM_write_bio_X509(cert_bio.get(), cert.get());
  PEM_write_bio_PrivateKey(key_bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr);
  return {bio_text(cert_bio.get()), bio_text(key_bio.get())};
}

// --- CertificateAuthority -------------------------------------------------------------------

TEST(InterceptCertificateAuthority, GeneratesASelfSignedCa) {
  auto ca = generated_ca();
  ASSERT_TRUE(ca);
  X509* cert = ca->certificate();
  EXPECT_EQ(X509_get_version(cert), X509_VERSION_3);
  EXPECT_EQ(X509_check_ca(cert), 1);
  BasicConstraintsPtr constraints(static_cast<BASIC_CONSTRAINTS*>(
      X509_get_ext_d2i(cert, NID_basic_constraints, nullptr, nullptr)));
  ASSERT_TRUE(constraints);
  EXPECT_NE(constraints->ca, 0);
  EXPECT_TRUE(is_critical(cert, NID_basic_constraints));
  EXPECT_TRUE(is_critical(cert, NID_key_usage));
  EXPECT_EQ(X509_get_key_usage(cert), static_cast<uint32_t>(KU_KEY_CERT_SIGN | KU_CRL_SIGN));
  EXPECT_NE(X509_get0_subject_key_id(cert), nullptr);
  EXPECT_EQ(common_name(cert), "Rift Intercept CA");
  EXPECT_EQ(X509_NAME_cmp(X509_get_subject_name(cert), X509_get_issuer_name(cert)), 0);
  EXPECT_EQ(verify_with(cert, cert, false), X509_V_OK);
  EXPECT_EQ(EVP_PKEY_get_base_id(X509_get0_pubkey(cert)), EVP_PKEY_EC);
  // A positive serial of at most 16 bytes.
  const ASN1_INTEGER* serial = X509_get0_serialNumber(cert);
  EXPECT_EQ(ASN1_STRING_type(serial), V_ASN1_INTEGER);
  EXPECT_LE(ASN1_STRING_length(serial), 16);
  // Ten years, give or take the leap days and the day of slack before now.
  int days = 0;
  int seconds = 0;
  ASSERT_EQ(ASN1_TIME_diff(&days, &seconds, X509_get0_notBefore(cert), X509_get0_notAfter(cert)),
            1);
  EXPECT_GE(days, 3652);
  EXPECT_LE(days, 3654);
  EXPECT_NE(ca->cert_pem().find("BEGIN CERTIFICATE"), std::string::npos);
  EXPECT_NE(ca->key_pem().find("BEGIN PRIVATE KEY"), std::string::npos);
  EXPECT_EQ(ca->cert_der(), der_of(cert));
}

TEST(InterceptCertificateAuthority, TwoGeneratedCasDiffer) {
  auto first = generated_ca();
  auto second = generated_ca();
  ASSERT_TRUE(first && second);
  EXPECT_NE(first->cert_der(), second->cert_der());
  EXPECT_NE(ASN1_INTEGER_cmp(X509_get0_serialNumber(first->certificate()),
                             X509_get0_serialNumber(second->certificate())),
            0);
}

TEST(InterceptCertificateAuthority, MintsADnsLeafThatVerifies) {
  auto ca = generated_ca();
  ASSERT_TRUE(ca);
  X509Ptr leaf = ca->mint_leaf("Flags.Vendor.Example");
  ASSERT_TRUE(leaf);
  EXPECT_EQ(verify_with(ca->certificate(), leaf.get()), X509_V_OK);
  EXPECT_EQ(X509_check_host(leaf.get(), "flags.vendor.example", 0, 0, nullptr), 1);
  EXPECT_NE(X509_check_host(leaf.get(), "other.vendor.example", 0, 0, nullptr), 1);
  EXPECT_EQ(common_name(leaf.get()), "flags.vendor.example");
  EXPECT_EQ(X509_check_ca(leaf.get()), 0);
  EXPECT_TRUE(is_critical(leaf.get(), NID_key_usage));
  EXPECT_EQ(X509_get_key_usage(leaf.get()),
            static_cast<uint32_t>(KU_DIGITAL_SIGNATURE | KU_KEY_ENCIPHERMENT));
  EXPECT_EQ(X509_get_extended_key_usage(leaf.get()), static_cast<uint32_t>(XKU_SSL_SERVER));
  // The authority key identifier names the CA's subject key identifier.
  const ASN1_OCTET_STRING* authority_id = X509_get0_authority_key_id(leaf.get());
  ASSERT_NE(authority_id, nullptr);
  EXPECT_EQ(ASN1_OCTET_STRING_cmp(authority_id, X509_get0_subject_key_id(ca->certificate())), 0);
  // The shared leaf key.
  EXPECT_EQ(EVP_PKEY_eq(X509_get0_pubkey(leaf.get()), ca->leaf_key()), 1);
  EXPECT_EQ(X509_get_signature_nid(leaf.get()), NID_ecdsa_with_SHA256);
  int days = 0;
  int seconds = 0;
  ASSERT_EQ(ASN1_TIME_diff(&days, &seconds, X509_get0_notBefore(leaf.get()),
                           X509_get0_notAfter(leaf.get())),
            1);
  EXPECT_EQ(days, 398);  // the day of slack + 397
}

TEST(InterceptCertificateAuthority, MintsIpLeavesWithIpAddressNames) {
  auto ca = generated_ca();
  ASSERT_TRUE(ca);
  X509Ptr v4 = ca->mint_leaf("127.0.0.1");
  ASSERT_TRUE(v4);
  EXPECT_EQ(verify_with(ca->certificate(), v4.get()), X509_V_OK);
  EXPECT_EQ(X509_check_ip_asc(v4.get(), "127.0.0.1", 0), 1);
  EXPECT_NE(X509_check_ip_asc(v4.get(), "127.0.0.2", 0), 1);
  X509Ptr v6 = ca->mint_leaf("0:0:0::1");
  ASSERT_TRUE(v6);
  EXPECT_EQ(X509_check_ip_asc(v6.get(), "::1", 0), 1);
  EXPECT_EQ(common_name(v6.get()), "::1");
  GeneralNamesPtr names(static_cast<GENERAL_NAMES*>(
      X509_get_ext_d2i(v6.get(), NID_subject_alt_name, nullptr, nullptr)));
  ASSERT_TRUE(names);
  ASSERT_EQ(sk_GENERAL_NAME_num(names.get()), 1);
  EXPECT_EQ(sk_GENERAL_NAME_value(names.get(), 0)->type, GEN_IPADD);
}

TEST(InterceptCertificateAuthority, TruncatesTheCommonNameButNotTheSubjectAltName) {
  auto ca = generated_ca();
  ASSERT_TRUE(ca);
  const std::string host = std::string(60, 'a') + "." + std::string(60, 'b') + ".example";
  X509Ptr leaf = ca->mint_leaf(host);
  ASSERT_TRUE(leaf);
  EXPECT_EQ(common_name(leaf.get()), host.substr(0, 64));
  EXPECT_EQ(X509_check_host(leaf.get(), host.c_str(), host.size(), 0, nullptr), 1);
}

TEST(InterceptCertificateAuthority, LeavesNeverOutliveTheirCa) {
  const auto [cert_pem, key_pem] = short_lived_ca_pem();
  auto loaded = CertificateAuthority::from_pem(cert_pem, key_pem);
  ASSERT_TRUE(std::holds_alternative<CertificateAuthority>(loaded))
      << std::get<std::string>(loaded);
  const auto& ca = std::get<CertificateAuthority>(loaded);
  X509Ptr leaf = ca.mint_leaf("short.example");
  ASSERT_TRUE(leaf);
  EXPECT_EQ(ASN1_TIME_compare(X509_get0_notAfter(leaf.get()), X509_get0_notAfter(ca.certificate())),
            0);
  EXPECT_GE(
      ASN1_TIME_compare(X509_get0_notBefore(leaf.get()), X509_get0_notBefore(ca.certificate())), 0);
  EXPECT_EQ(verify_with(ca.certificate(), leaf.get()), X509_V_OK);
  // Without a subjectKeyIdentifier on the CA, the key identifier is still there (from the key).
  EXPECT_EQ(X509_get0_subject_key_id(ca.certificate()), nullptr);
  EXPECT_NE(X509_get0_authority_key_id(leaf.get()), nullptr);
}

TEST(InterceptCertificateAuthority, RefusesToMintForInvalidHosts) {
  auto ca = generated_ca();
  ASSERT_TRUE(ca);
  EXPECT_FALSE(ca->mint_leaf(""));
  EXPECT_FALSE(ca->mint_leaf("bad host"));
  EXPECT_FALSE(ca->mint_leaf("*.example.com"));
  EXPECT_EQ(ERR_peek_error(), 0u);
}

TEST(InterceptCertificateAuthority, FromPemRoundTrips) {
  auto ca = generated_ca();
  ASSERT_TRUE(ca);
  auto loaded = CertificateAuthority::from_pem(ca->cert_pem(), ca->key_pem());
  ASSERT_TRUE(std::holds_alternative<CertificateAuthority>(loaded))
      << std::get<std::string>(loaded);
  const auto& copy = std::get<CertificateAuthority>(loaded);
  EXPECT_EQ(copy.cert_der(), ca->cert_der());
  EXPECT_EQ(copy.cert_pem(), ca->cert_pem());
  X509Ptr leaf = copy.mint_leaf("flags.vendor.example");
  ASSERT_TRUE(leaf);
  EXPECT_EQ(verify_with(ca->certificate(), leaf.get()), X509_V_OK);
}

TEST(InterceptCertificateAuthority, FromPemTakesAnRsaCa) {
  auto loaded = CertificateAuthority::from_pem(fixture("server-cert"), fixture("server-key"));
  ASSERT_TRUE(std::holds_alternative<CertificateAuthority>(loaded))
      << std::get<std::string>(loaded);
  const auto& ca = std::get<CertificateAuthority>(loaded);
  X509Ptr leaf = ca.mint_leaf("flags.vendor.example");
  ASSERT_TRUE(leaf);
  EXPECT_EQ(X509_get_signature_nid(leaf.get()), NID_sha256WithRSAEncryption);
  EXPECT_EQ(verify_with(ca.certificate(), leaf.get()), X509_V_OK);
}

// A leaf as the "CA": it may not sign, so every client would refuse what it minted.
TEST(InterceptCertificateAuthority, FromPemRefusesACertificateThatMayNotSign) {
  auto ca = generated_ca();
  ASSERT_TRUE(ca);
  X509Ptr leaf = ca->mint_leaf("leaf.example");
  ASSERT_TRUE(leaf);
  Owned<BIO, BIO_free> cert_out(BIO_new(BIO_s_mem()));
  Owned<BIO, BIO_free> key_out(BIO_new(BIO_s_mem()));
  ASSERT_EQ(PEM_write_bio_X509(cert_out.get(), leaf.get()), 1);
  ASSERT_EQ(PEM_write_bio_PrivateKey(key_out.get(), ca->leaf_key(), nullptr, nullptr, 0, nullptr,
                                     nullptr),
            1);
  const auto text = [](BIO* bio) {
    char* data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    return std::string(data, static_cast<size_t>(size));
  };
  auto loaded = CertificateAuthority::from_pem(text(cert_out.get()), text(key_out.get()));
  ASSERT_TRUE(std::holds_alternative<std::string>(loaded));
  EXPECT_EQ(std::get<std::string>(loaded),
            "the CA certificate may not sign certificates (it needs basicConstraints CA:TRUE)");
}

TEST(InterceptCertificateAuthority, FromPemReportsEachError) {
  auto ca = generated_ca();
  auto other = generated_ca();
  ASSERT_TRUE(ca && other);
  const auto error_of = [](std::variant<CertificateAuthority, std::string> result) {
    const auto* error = std::get_if<std::string>(&result);
    return error ? *error : std::string("(loaded)");
  };
  EXPECT_EQ(error_of(CertificateAuthority::from_pem("not a pem", ca->key_pem()))
                .rfind("invalid CA certificate PEM: ", 0),
            0u);
  EXPECT_EQ(error_of(CertificateAuthority::from_pem("", ca->key_pem()))
                .rfind("invalid CA certificate PEM: ", 0),
            0u);
  EXPECT_EQ(error_of(CertificateAuthority::from_pem(ca->cert_pem(), "garbage"))
                .rfind("invalid CA key PEM: ", 0),
            0u);
  // A certificate where the key should be is no key either.
  EXPECT_EQ(error_of(CertificateAuthority::from_pem(ca->cert_pem(), ca->cert_pem()))
                .rfind("invalid CA key PEM: ", 0),
            0u);
  EXPECT_EQ(error_of(CertificateAuthority::from_pem(ca->cert_pem(), other->key_pem())),
            "CA key does not match the CA certificate");
  EXPECT_EQ(
      error_of(CertificateAuthority::from_pem(fixture("server-cert"), fixture("stranger-key"))),
      "CA key does not match the CA certificate");
  // The reasons, where OpenSSL 3's decoders alone would only say "unsupported".
  EXPECT_EQ(error_of(CertificateAuthority::from_pem("not a pem", ca->key_pem())),
            "invalid CA certificate PEM: no start line");
  EXPECT_EQ(error_of(CertificateAuthority::from_pem(ca->cert_pem(), "garbage")),
            "invalid CA key PEM: no start line");
  EXPECT_EQ(error_of(CertificateAuthority::from_pem(ca->cert_pem(), ca->cert_pem())),
            "invalid CA key PEM: no supported private key found");
  // A key where the certificate should be.
  EXPECT_EQ(error_of(CertificateAuthority::from_pem(ca->key_pem(), ca->key_pem())),
            "invalid CA certificate PEM: no start line");
  BioPtr encrypted(BIO_new(BIO_s_mem()));
  Owned<EVP_PKEY, EVP_PKEY_free> key(PEM_read_bio_PrivateKey(
      BioPtr(BIO_new_mem_buf(ca->key_pem().data(), static_cast<int>(ca->key_pem().size()))).get(),
      nullptr, nullptr, nullptr));
  ASSERT_TRUE(key);
  ASSERT_EQ(PEM_write_bio_PrivateKey(encrypted.get(), key.get(), EVP_aes_256_cbc(), nullptr, 0,
                                     nullptr, const_cast<char*>("secret")),
            1);
  EXPECT_EQ(error_of(CertificateAuthority::from_pem(ca->cert_pem(), bio_text(encrypted.get()))),
            "invalid CA key PEM: encrypted keys are not supported");
  EXPECT_EQ(ERR_peek_error(), 0u);
}

TEST(InterceptCertificateAuthority, ValidHost) {
  EXPECT_TRUE(CertificateAuthority::valid_host("example.com"));
  EXPECT_TRUE(CertificateAuthority::valid_host("EXAMPLE.com"));
  EXPECT_TRUE(CertificateAuthority::valid_host("localhost"));
  EXPECT_TRUE(CertificateAuthority::valid_host("x"));
  EXPECT_TRUE(CertificateAuthority::valid_host("_dmarc.my-host.example"));
  EXPECT_TRUE(CertificateAuthority::valid_host(std::string(63, 'x') + ".com"));
  EXPECT_TRUE(CertificateAuthority::valid_host("127.0.0.1"));
  EXPECT_TRUE(CertificateAuthority::valid_host("::1"));
  EXPECT_TRUE(CertificateAuthority::valid_host("2001:db8::8a2e:370:7334"));

  EXPECT_FALSE(CertificateAuthority::valid_host(""));
  EXPECT_FALSE(CertificateAuthority::valid_host("a..b"));
  EXPECT_FALSE(CertificateAuthority::valid_host(".a"));
  EXPECT_FALSE(CertificateAuthority::valid_host("example.com."));
  EXPECT_FALSE(CertificateAuthority::valid_host("-a.com"));
  EXPECT_FALSE(CertificateAuthority::valid_host("a-.com"));
  EXPECT_FALSE(CertificateAuthority::valid_host(std::string(64, 'x') + ".com"));
  EXPECT_FALSE(CertificateAuthority::valid_host("bad host"));
  EXPECT_FALSE(CertificateAuthority::valid_host("bad host!"));
  EXPECT_FALSE(CertificateAuthority::valid_host("*.example.com"));
  EXPECT_FALSE(CertificateAuthority::valid_host("[::1]"));
  EXPECT_FALSE(CertificateAuthority::valid_host("example.com:443"));
  EXPECT_FALSE(CertificateAuthority::valid_host(std::string("127.0.0.1\0.evil", 15)));
  std::string long_name;
  while (long_name.size() < 254) long_name += "abcdefghi.";
  long_name.resize(254);
  EXPECT_FALSE(CertificateAuthority::valid_host(long_name));
  long_name.resize(253);
  if (long_name.back() == '.') long_name.back() = 'x';
  EXPECT_TRUE(CertificateAuthority::valid_host(long_name));

  EXPECT_EQ(CertificateAuthority::normalize_host("Api.Example.TEST"), "api.example.test");
  EXPECT_EQ(CertificateAuthority::normalize_host("0:0::1"), "::1");
  EXPECT_EQ(CertificateAuthority::normalize_host("bad host"), std::nullopt);
}

// --- LeafCache ------------------------------------------------------------------------------

TEST(InterceptLeafCache, SameHostSameContext) {
  auto ca = generated_ca();
  ASSERT_TRUE(ca);
  LeafCache cache(ca);
  auto first = cache.context_for("api.example.test");
  auto second = cache.context_for("API.example.test");
  ASSERT_TRUE(first);
  EXPECT_EQ(first.get(), second.get());
  EXPECT_EQ(cache.minted(), 1u);
  EXPECT_EQ(cache.hits(), 1u);
  EXPECT_EQ(cache.size(), 1u);
  X509* leaf = SSL_CTX_get0_certificate(first.get());
  ASSERT_NE(leaf, nullptr);
  EXPECT_EQ(X509_check_host(leaf, "api.example.test", 0, 0, nullptr), 1);
  EXPECT_EQ(SSL_CTX_get_min_proto_version(first.get()), TLS1_2_VERSION);
}

TEST(InterceptLeafCache, EvictsTheLeastRecentlyUsed) {
  auto ca = generated_ca();
  ASSERT_TRUE(ca);
  LeafCache cache(ca, 2);
  auto a = cache.context_for("a.example");
  auto b = cache.context_for("b.example");
  EXPECT_EQ(cache.context_for("a.example"), a);  // a is now the most recent
  auto c = cache.context_for("c.example");       // evicts b
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.minted(), 3u);
  EXPECT_EQ(cache.context_for("a.example"), a);
  EXPECT_EQ(cache.context_for("c.example"), c);
  EXPECT_EQ(cache.minted(), 3u);
  auto b_again = cache.context_for("b.example");
  EXPECT_NE(b_again, b);
  EXPECT_EQ(cache.minted(), 4u);
  EXPECT_EQ(cache.size(), 2u);
}

TEST(InterceptLeafCache, InvalidHostGetsNothing) {
  auto ca = generated_ca();
  ASSERT_TRUE(ca);
  LeafCache cache(ca);
  EXPECT_EQ(cache.context_for("bad host!"), nullptr);
  EXPECT_EQ(cache.context_for(""), nullptr);
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_EQ(cache.minted(), 0u);
}

TEST(InterceptLeafCache, ConcurrentLookupsAgree) {
  auto ca = generated_ca();
  ASSERT_TRUE(ca);
  LeafCache cache(ca, 8);
  std::vector<std::thread> workers;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t) {
    workers.emplace_back([&cache, &failures, t] {
      for (int i = 0; i < 200; ++i) {
        const std::string host = "h" + std::to_string((i * 7 + t) % 12) + ".example";
        auto context = cache.context_for(host);
        X509* leaf = context ? SSL_CTX_get0_certificate(context.get()) : nullptr;
        if (!leaf || X509_check_host(leaf, host.c_str(), host.size(), 0, nullptr) != 1) {
          ++failures[static_cast<std::size_t>(t)];
        }
      }
    });
  }
  for (auto& worker : workers) worker.join();
  EXPECT_EQ(failures, std::vector<int>(4, 0));
  EXPECT_LE(cache.size(), 8u);
  EXPECT_EQ(cache.hits() + cache.minted(), 800u);
}

using testing::Handshake;
using testing::run_handshake;

struct Peers {
  SslCtxPtr client_context{SSL_CTX_new(TLS_client_method())};
  SslCtxPtr base{SSL_CTX_new(TLS_server_method())};
  SslPtr client;
  SslPtr server;

  explicit Peers(const CertificateAuthority& ca) {
    X509_STORE_add_cert(SSL_CTX_get_cert_store(client_context.get()), ca.certificate());
    SSL_CTX_set_verify(client_context.get(), SSL_VERIFY_PEER, nullptr);
    client.reset(SSL_new(client_context.get()));
  }
  // After install_sni: SSL_new copies the servername callback's context.
  void make_server() { server.reset(SSL_new(base.get())); }
  std::string peer_common_name() const {
    X509Ptr peer(SSL_get1_peer_certificate(client.get()));
    return peer ? common_name(peer.get()) : "(none)";
  }
};

TEST(InterceptLeafCache, HandshakeThroughSni) {
  auto ca = generated_ca();
  ASSERT_TRUE(ca);
  LeafCache cache(ca);
  Peers peers(*ca);
  cache.install_sni(peers.base.get());
  peers.make_server();
  ASSERT_EQ(SSL_set_tlsext_host_name(peers.client.get(), "api.example.test"), 1);
  ASSERT_EQ(SSL_set1_host(peers.client.get(), "api.example.test"), 1);
  const Handshake result = run_handshake(peers.client.get(), peers.server.get());
  EXPECT_TRUE(result.client_ok) << ERR_reason_error_string(result.client_error);
  EXPECT_TRUE(result.server_ok) << ERR_reason_error_string(result.server_error);
  EXPECT_EQ(SSL_get_verify_result(peers.client.get()), X509_V_OK);
  EXPECT_EQ(peers.peer_common_name(), "api.example.test");
  // The CA travels as the chain.
  EXPECT_EQ(sk_X509_num(SSL_get_peer_cert_chain(peers.client.get())), 2);
  EXPECT_EQ(cache.minted(), 1u);
  EXPECT_EQ(cache.size(), 1u);
}

TEST(InterceptLeafCache, HandshakeFailsForAnInvalidSni) {
  auto ca = generated_ca();
  ASSERT_TRUE(ca);
  LeafCache cache(ca);
  Peers peers(*ca);
  cache.install_sni(peers.base.get());
  peers.make_server();
  ASSERT_EQ(SSL_set_tlsext_host_name(peers.client.get(), "bad host!"), 1);
  const Handshake result = run_handshake(peers.client.get(), peers.server.get());
  EXPECT_FALSE(result.client_ok);
  EXPECT_FALSE(result.server_ok);
  EXPECT_EQ(ERR_GET_REASON(result.client_error), SSL_R_TLSV1_UNRECOGNIZED_NAME)
      << ERR_reason_error_string(result.client_error);
  EXPECT_EQ(cache.size(), 0u);
}

TEST(InterceptLeafCache, UseLeafServesClientsWithoutSni) {
  auto ca = generated_ca();
  ASSERT_TRUE(ca);
  LeafCache cache(ca);
  Peers peers(*ca);
  cache.install_sni(peers.base.get());
  peers.make_server();
  ASSERT_EQ(X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(peers.client.get()), "127.0.0.1"), 1);
  ASSERT_TRUE(cache.use_leaf(peers.server.get(), "127.0.0.1"));
  EXPECT_FALSE(cache.use_leaf(peers.server.get(), "not valid"));
  const Handshake result = run_handshake(peers.client.get(), peers.server.get());
  EXPECT_TRUE(result.client_ok) << ERR_reason_error_string(result.client_error);
  EXPECT_TRUE(result.server_ok) << ERR_reason_error_string(result.server_error);
  EXPECT_EQ(SSL_get_verify_result(peers.client.get()), X509_V_OK);
  EXPECT_EQ(peers.peer_common_name(), "127.0.0.1");
}

TEST(InterceptLeafCache, SniWinsOverUseLeaf) {
  auto ca = generated_ca();
  ASSERT_TRUE(ca);
  LeafCache cache(ca);
  Peers peers(*ca);
  cache.install_sni(peers.base.get());
  peers.make_server();
  ASSERT_TRUE(cache.use_leaf(peers.server.get(), "connect.example.test"));
  ASSERT_EQ(SSL_set_tlsext_host_name(peers.client.get(), "sni.example.test"), 1);
  ASSERT_EQ(SSL_set1_host(peers.client.get(), "sni.example.test"), 1);
  const Handshake result = run_handshake(peers.client.get(), peers.server.get());
  EXPECT_TRUE(result.client_ok) << ERR_reason_error_string(result.client_error);
  EXPECT_EQ(peers.peer_common_name(), "sni.example.test");
}

TEST(InterceptLeafCache, EvictionNeverFreesAContextInUse) {
  auto ca = generated_ca();
  ASSERT_TRUE(ca);
  LeafCache cache(ca, 1);
  Peers peers(*ca);
  peers.make_server();
  ASSERT_TRUE(cache.use_leaf(peers.server.get(), "first.example.test"));
  std::weak_ptr<SSL_CTX> first = cache.context_for("first.example.test");
  cache.context_for("second.example.test");  // evicts first
  EXPECT_TRUE(first.expired());              // the cache let go of it...
  ASSERT_EQ(SSL_set1_host(peers.client.get(), "first.example.test"), 1);
  const Handshake result = run_handshake(peers.client.get(), peers.server.get());
  EXPECT_TRUE(result.client_ok) << ERR_reason_error_string(result.client_error);
  EXPECT_EQ(peers.peer_common_name(), "first.example.test");  // ...the connection did not
}

// --- Trust stores ---------------------------------------------------------------------------

TEST(InterceptTrustStore, Pkcs12HoldsOneTrustedCertificate) {
  auto ca = generated_ca();
  ASSERT_TRUE(ca);
  const std::string file = export_pkcs12(*ca, "changeit");
  const auto* in = reinterpret_cast<const unsigned char*>(file.data());
  Pkcs12Ptr p12(d2i_PKCS12(nullptr, &in, static_cast<long>(file.size())));
  ASSERT_TRUE(p12);
  EXPECT_EQ(PKCS12_verify_mac(p12.get(), "changeit", -1), 1);
  EXPECT_EQ(PKCS12_verify_mac(p12.get(), "wrong", -1), 0);
  ERR_clear_error();

  STACK_OF(PKCS7)* safes = PKCS12_unpack_authsafes(p12.get());
  ASSERT_NE(safes, nullptr);
  ASSERT_EQ(sk_PKCS7_num(safes), 1);
  PKCS7* safe = sk_PKCS7_value(safes, 0);
  ASSERT_EQ(OBJ_obj2nid(safe->type), NID_pkcs7_data);
  STACK_OF(PKCS12_SAFEBAG)* bags = PKCS12_unpack_p7data(safe);
  ASSERT_NE(bags, nullptr);
  ASSERT_EQ(sk_PKCS12_SAFEBAG_num(bags), 1);
  PKCS12_SAFEBAG* bag = sk_PKCS12_SAFEBAG_value(bags, 0);
  EXPECT_EQ(PKCS12_SAFEBAG_get_nid(bag), NID_certBag);
  X509Ptr cert(PKCS12_SAFEBAG_get1_cert(bag));
  ASSERT_TRUE(cert);
  EXPECT_EQ(der_of(cert.get()), ca->cert_der());
  char* friendly = PKCS12_get_friendlyname(bag);
  ASSERT_NE(friendly, nullptr);
  EXPECT_STREQ(friendly, "rift-intercept-ca");
  OPENSSL_free(friendly);

  std::string usage;
  const STACK_OF(X509_ATTRIBUTE)* attributes = PKCS12_SAFEBAG_get0_attrs(bag);
  for (int i = 0; i < sk_X509_ATTRIBUTE_num(attributes); ++i) {
    X509_ATTRIBUTE* attribute = sk_X509_ATTRIBUTE_value(attributes, i);
    std::array<char, 80> oid{};
    OBJ_obj2txt(oid.data(), oid.size(), X509_ATTRIBUTE_get0_object(attribute), 1);
    if (oid.data() != kAttributeOid) continue;
    ASSERT_EQ(X509_ATTRIBUTE_count(attribute), 1);
    ASN1_TYPE* value = X509_ATTRIBUTE_get0_type(attribute, 0);
    ASSERT_EQ(ASN1_TYPE_get(value), V_ASN1_OBJECT);
    std::array<char, 80> value_oid{};
    OBJ_obj2txt(value_oid.data(), value_oid.size(), value->value.object, 1);
    usage = value_oid.data();
  }
  EXPECT_EQ(usage, "2.5.29.37.0");
  sk_PKCS12_SAFEBAG_pop_free(bags, PKCS12_SAFEBAG_free);
  sk_PKCS7_pop_free(safes, PKCS7_free);

  // OpenSSL's own reader sees the certificate and no key.
  EVP_PKEY* key = nullptr;
  X509* parsed = nullptr;
  STACK_OF(X509)* extra = nullptr;
  ASSERT_EQ(PKCS12_parse(p12.get(), "changeit", &key, &parsed, &extra), 1);
  EXPECT_EQ(key, nullptr);
  EXPECT_EQ(parsed, nullptr);  // no key, so no "own" certificate: it is among the others
  EXPECT_EQ(sk_X509_num(extra), 1);
  EVP_PKEY_free(key);
  X509_free(parsed);
  sk_X509_pop_free(extra, X509_free);
}

std::uint32_t u32_at(const std::string& data, std::size_t at) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < 4; ++i)
    value = (value << 8) | static_cast<unsigned char>(data[at + i]);
  return value;
}

std::uint16_t u16_at(const std::string& data, std::size_t at) {
  return static_cast<std::uint16_t>((static_cast<unsigned char>(data[at]) << 8) |
                                    static_cast<unsigned char>(data[at + 1]));
}

std::string sha1(const std::string& password_utf16be, const std::string& body) {
  MdCtxPtr context(EVP_MD_CTX_new());
  std::array<unsigned char, 20> digest{};
  unsigned int size = 0;
  EVP_DigestInit_ex(context.get(), EVP_sha1(), nullptr);
  EVP_DigestUpdate(context.get(), password_utf16be.data(), password_utf16be.size());
  EVP_DigestUpdate(context.get(), "Mighty Aphrodite", 16);
  EVP_DigestUpdate(context.get(), body.data(), body.size());
  EVP_DigestFinal_ex(context.get(), digest.data(), &size);
  return std::string(reinterpret_cast<const char*>(digest.data()), size);
}

TEST(InterceptTrustStore, JksLayoutAndDigest) {
  auto ca = generated_ca();
  ASSERT_TRUE(ca);
  const std::string store = export_jks(*ca, "changeit");
  const std::string der = ca->cert_der();
  ASSERT_GT(store.size(), 20u);
  EXPECT_EQ(u32_at(store, 0), 0xFEEDFEEDu);
  EXPECT_EQ(u32_at(store, 4), 2u);
  EXPECT_EQ(u32_at(store, 8), 1u);
  EXPECT_EQ(u32_at(store, 12), 2u);  // trusted certificate entry
  std::size_t at = 16;
  ASSERT_EQ(u16_at(store, at), 17u);
  EXPECT_EQ(store.substr(at + 2, 17), "rift-intercept-ca");
  at += 2 + 17;
  const std::uint64_t created = (std::uint64_t{u32_at(store, at)} << 32) | u32_at(store, at + 4);
  const auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  EXPECT_LE(created, static_cast<std::uint64_t>(now_ms));
  EXPECT_GT(created + 60'000, static_cast<std::uint64_t>(now_ms));
  at += 8;
  ASSERT_EQ(u16_at(store, at), 5u);
  EXPECT_EQ(store.substr(at + 2, 5), "X.509");
  at += 2 + 5;
  ASSERT_EQ(u32_at(store, at), der.size());
  EXPECT_EQ(store.substr(at + 4, der.size()), der);
  at += 4 + der.size();
  ASSERT_EQ(store.size(), at + 20);

  const std::string body = store.substr(0, at);
  const std::string changeit_utf16 = std::string("\0c\0h\0a\0n\0g\0e\0i\0t", 16);
  EXPECT_EQ(store.substr(at), sha1(changeit_utf16, body));

  const std::string other = export_jks(*ca, "another");
  ASSERT_EQ(other.size(), store.size());
  EXPECT_NE(other.substr(at), store.substr(at));
  EXPECT_EQ(other.substr(at), sha1(std::string("\0a\0n\0o\0t\0h\0e\0r", 14), other.substr(0, at)));
}

TEST(InterceptTrustStore, JksPasswordIsHashedAsUtf16) {
  auto ca = generated_ca();
  ASSERT_TRUE(ca);
  // é (U+00E9), € (U+20AC), 𝄞 (U+1D11E, a surrogate pair in UTF-16).
  const std::string store = export_jks(*ca, "\xC3\xA9\xE2\x82\xAC\xF0\x9D\x84\x9E");
  const std::string utf16be("\x00\xE9\x20\xAC\xD8\x34\xDD\x1E", 8);
  const std::size_t at = store.size() - 20;
  EXPECT_EQ(store.substr(at), sha1(utf16be, store.substr(0, at)));
}

}  // namespace
}  // namespace rift::intercept
