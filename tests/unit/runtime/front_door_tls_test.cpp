// The front door's TLS (runtime/front_door/{certificate_specs,sni_certificates}): which
// certificate each SNI gets, what a table refuses, and real handshakes through the listener's
// context, before and after the table is swapped.
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <variant>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/base/openssl_owned.h"
#include "runtime/front_door/certificate_specs.h"
#include "runtime/front_door/sni_certificates.h"
#include "tests/unit/runtime/tls_handshake.h"

namespace rift::front_door {
namespace {

using Table = std::shared_ptr<const CertificateTable>;

std::string pem_of(BIO* bio) {
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  return std::string(data, static_cast<size_t>(size));
}

// A self-signed EC certificate for `common_name` and the DNS names given as subjectAltNames.
CertificateSpec self_signed(const std::string& common_name,
                            const std::vector<std::string>& dns_names) {
  static long serial = 1;
  Owned<EVP_PKEY, EVP_PKEY_free> key(EVP_EC_gen("P-256"));
  Owned<X509, X509_free> cert(X509_new());
  X509_set_version(cert.get(), 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), serial++);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), 0);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 3600);
  X509_set_pubkey(cert.get(), key.get());
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>(common_name.c_str()), -1, -1,
                             0);
  X509_set_issuer_name(cert.get(), name);
  if (!dns_names.empty()) {
    std::string list;
    for (const auto& dns : dns_names) list += (list.empty() ? "DNS:" : ",DNS:") + dns;
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    X509V3_set_ctx(&context, cert.get(), cert.get(), nullptr, nullptr, 0);
    Owned<X509_EXTENSION, X509_EXTENSION_free> extension(
        X509V3_EXT_conf_nid(nullptr, &context, NID_subject_alt_name, list.c_str()));
    X509_add_ext(cert.get(), extension.get(), -1);
  }
  X509_sign(cert.get(), key.get(), EVP_sha256());
  Owned<BIO, BIO_free> cert_bio(BIO_new(BIO_s_mem()));
  Owned<BIO, BIO_free> key_bio(BIO_new(BIO_s_mem()));
  PEM_write_bio_X509(cert_bio.get(), cert.get());
  PEM_write_bio_PrivateKey(key_bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr);
  CertificateSpec spec;
  spec.cert_pem = pem_of(cert_bio.get());
  spec.key_pem = pem_of(key_bio.get());
  spec.source = "inline";
  return spec;
}

Table build(const std::vector<CertificateSpec>& specs, bool offer_h2 = false) {
  auto built = CertificateTable::build(specs, offer_h2);
  if (auto* error = std::get_if<std::string>(&built)) {
    ADD_FAILURE() << *error;
    return nullptr;
  }
  return std::get<Table>(built);
}

std::string refusal(const std::vector<CertificateSpec>& specs) {
  auto built = CertificateTable::build(specs, false);
  auto* error = std::get_if<std::string>(&built);
  return error ? *error : "(accepted)";
}

// The common name of the certificate a table presents for `server_name`.
std::string chosen(const CertificateTable& table, std::string_view server_name) {
  X509* cert = SSL_CTX_get0_certificate(table.select(server_name));
  X509_NAME* name = X509_get_subject_name(cert);
  const int at = X509_NAME_get_index_by_NID(name, NID_commonName, -1);
  const ASN1_STRING* text = X509_NAME_ENTRY_get_data(X509_NAME_get_entry(name, at));
  return std::string(reinterpret_cast<const char*>(ASN1_STRING_get0_data(text)),
                     static_cast<size_t>(ASN1_STRING_length(text)));
}

std::vector<CertificateSpec> three_sites() {
  return {self_signed("fallback", {"fallback.test"}), self_signed("a", {"a.test", "www.a.test"}),
          self_signed("b", {"*.b.test"})};
}

TEST(FrontDoorCertificates, ExactBeforeWildcardBeforeDefault) {
  Table table = build(three_sites());
  ASSERT_TRUE(table);
  EXPECT_EQ(chosen(*table, "a.test"), "a");
  EXPECT_EQ(chosen(*table, "WWW.A.Test"), "a");
  EXPECT_EQ(chosen(*table, "a.test."), "a");
  EXPECT_EQ(chosen(*table, "x.b.test"), "b");
  // A certificate wildcard covers one label, as clients check it.
  EXPECT_EQ(chosen(*table, "y.x.b.test"), "fallback");
  EXPECT_EQ(chosen(*table, "b.test"), "fallback");
  EXPECT_EQ(chosen(*table, "unknown.test"), "fallback");
  EXPECT_EQ(chosen(*table, ""), "fallback");
}

TEST(FrontDoorCertificates, AnExactNameBeatsAWildcardThatAlsoCoversIt) {
  Table table = build({self_signed("wild", {"*.b.test"}), self_signed("api", {"api.b.test"})});
  ASSERT_TRUE(table);
  EXPECT_EQ(chosen(*table, "api.b.test"), "api");
  EXPECT_EQ(chosen(*table, "web.b.test"), "wild");
}

TEST(FrontDoorCertificates, DefaultIsTheMarkedOneElseTheFirst) {
  auto specs = three_sites();
  specs[2].is_default = true;
  Table table = build(specs);
  ASSERT_TRUE(table);
  EXPECT_EQ(chosen(*table, "nobody.test"), "b");
  EXPECT_EQ(table->describe()["certificates"][2]["default"], true);
  EXPECT_EQ(table->describe()["certificates"][0]["default"], false);
}

TEST(FrontDoorCertificates, NamesFromTheCommonNameWhenThereAreNoAltNames) {
  Table table = build({self_signed("fallback", {"fallback.test"}), self_signed("cn.test", {})});
  ASSERT_TRUE(table);
  EXPECT_EQ(chosen(*table, "cn.test"), "cn.test");
}

TEST(FrontDoorCertificates, GivenHostsReplaceTheCertificatesNames) {
  auto specs = three_sites();
  specs[1].hosts = {"Other.Test", "*.other.test"};
  Table table = build(specs);
  ASSERT_TRUE(table);
  EXPECT_EQ(chosen(*table, "other.test"), "a");
  EXPECT_EQ(chosen(*table, "x.other.test"), "a");
  EXPECT_EQ(chosen(*table, "a.test"), "fallback");
  const auto described = table->describe()["certificates"][1];
  EXPECT_EQ(described["hosts"], (ir::Json{"*.other.test", "other.test"}));
  EXPECT_EQ(described["namesFrom"], "hosts");
  EXPECT_EQ(described["subject"], "CN=a");
  EXPECT_EQ(described["source"], "inline");
  EXPECT_EQ(table->describe()["certificates"][0]["namesFrom"], "certificate");
  EXPECT_FALSE(described.contains("key"));
}

TEST(FrontDoorCertificates, RefusesWhatCannotBeServed) {
  EXPECT_EQ(refusal({}), "the front door's TLS needs at least one certificate");

  auto twice = three_sites();
  twice.push_back(self_signed("a2", {"a.test"}));
  EXPECT_EQ(refusal(twice),
            "certificates[3]: host 'a.test' is already claimed by certificates[1]; give each "
            "certificate the 'hosts' it should answer for");

  auto mismatched = three_sites();
  mismatched[1].key_pem = mismatched[2].key_pem;
  EXPECT_NE(refusal(mismatched).find("certificates[1]: error:"), std::string::npos)
      << refusal(mismatched);
  EXPECT_NE(refusal(mismatched).find("key values mismatch"), std::string::npos);

  auto garbage = three_sites();
  garbage[0].cert_pem = "not a certificate";
  EXPECT_NE(refusal(garbage).find("certificates[0]: error:"), std::string::npos);

  auto bad_host = three_sites();
  bad_host[2].hosts = {"a.*.test"};
  EXPECT_EQ(refusal(bad_host),
            "certificates[2]: host 'a.*.test' is not a DNS name or a wildcard of one leading "
            "'*.' label");

  auto two_defaults = three_sites();
  two_defaults[0].is_default = two_defaults[2].is_default = true;
  EXPECT_EQ(refusal(two_defaults),
            "certificates[2]: certificates[0] is already the default; only one may be");
}

TEST(FrontDoorCertificateBlock, ReadsPathsAndPemsAndNamesTheBadEntry) {
  const auto directory = std::filesystem::temp_directory_path() /
                         ("rift-front-door-tls-" + std::to_string(::getpid()));
  std::filesystem::create_directories(directory);
  const auto site = self_signed("a", {"a.test"});
  std::ofstream(directory / "a.pem") << site.cert_pem;
  std::ofstream(directory / "a.key") << site.key_pem;

  const ir::Json block = {
      {"certificates",
       {{{"certPath", (directory / "a.pem").string()},
         {"keyPath", (directory / "a.key").string()},
         {"default", true}},
        {{"cert", site.cert_pem}, {"key", site.key_pem}, {"hosts", {"b.test"}}}}}};
  auto read = read_certificate_block(block);
  ASSERT_TRUE(std::holds_alternative<std::vector<CertificateSpec>>(read))
      << std::get<std::string>(read);
  const auto& specs = std::get<std::vector<CertificateSpec>>(read);
  ASSERT_EQ(specs.size(), 2u);
  EXPECT_EQ(specs[0].cert_pem, site.cert_pem);
  EXPECT_EQ(specs[0].source, (directory / "a.pem").string());
  EXPECT_TRUE(specs[0].is_default);
  EXPECT_EQ(specs[1].source, "inline");
  EXPECT_EQ(specs[1].hosts, std::vector<std::string>{"b.test"});
  // The list alone is the same block.
  EXPECT_TRUE(std::holds_alternative<std::vector<CertificateSpec>>(
      read_certificate_block(block["certificates"])));

  const auto error = [](const ir::Json& given) {
    auto result = read_certificate_block(given);
    auto* text = std::get_if<std::string>(&result);
    return text ? *text : "(accepted)";
  };
  EXPECT_EQ(error({{"certificates", ir::Json::array()}}),
            "'certificates' must name at least one certificate");
  EXPECT_EQ(error({{"certs", ir::Json::array()}}), "expected {\"certificates\": [...]}");
  EXPECT_EQ(error({{"certificates", {{{"cert", "x"}}}}}),
            "certificates[0]: give exactly one of 'keyPath' (a PEM file) and 'key' (PEM text)");
  EXPECT_EQ(error({{"certificates", {{{"cert", "x"}, {"certPath", "/x"}, {"key", "y"}}}}}),
            "certificates[0]: give exactly one of 'certPath' (a PEM file) and 'cert' (PEM text)");
  EXPECT_EQ(error({{"certificates", {{{"certPath", "/nonexistent/a.pem"}, {"key", "y"}}}}}),
            "certificates[0]: cannot read /nonexistent/a.pem");
  EXPECT_EQ(error({{"certificates", {{{"cert", "x"}, {"key", "y"}, {"host", "a"}}}}}),
            "certificates[0]: unknown field 'host'");
  EXPECT_EQ(error({{"certificates", {{{"cert", "x"}, {"key", "y"}, {"hosts", "a"}}}}}),
            "certificates[0]: 'hosts' must be a list of host names");
  EXPECT_EQ(error({{"certificates", {"x"}}}),
            "certificates[0]: must be an object with certPath|cert and keyPath|key");
  std::filesystem::remove_all(directory);
}

// A client that sends `server_name` (or none) and offers h2, against the listener's context.
struct Client {
  Owned<SSL_CTX, SSL_CTX_free> context{SSL_CTX_new(TLS_client_method())};
  Owned<SSL, SSL_free> ssl{SSL_new(context.get())};
  explicit Client(const char* server_name) {
    if (server_name) SSL_set_tlsext_host_name(ssl.get(), server_name);
    static constexpr unsigned char kProtocols[] = "\x02h2\x08http/1.1";
    SSL_set_alpn_protos(ssl.get(), kProtocols, sizeof kProtocols - 1);
  }
  std::string peer_common_name() const {
    Owned<X509, X509_free> peer(SSL_get1_peer_certificate(ssl.get()));
    if (!peer) return "(none)";
    X509_NAME* name = X509_get_subject_name(peer.get());
    const ASN1_STRING* text = X509_NAME_ENTRY_get_data(
        X509_NAME_get_entry(name, X509_NAME_get_index_by_NID(name, NID_commonName, -1)));
    return std::string(reinterpret_cast<const char*>(ASN1_STRING_get0_data(text)),
                       static_cast<size_t>(ASN1_STRING_length(text)));
  }
  std::string protocol() const {
    const unsigned char* data = nullptr;
    unsigned int size = 0;
    SSL_get0_alpn_selected(ssl.get(), &data, &size);
    return std::string(reinterpret_cast<const char*>(data), size);
  }
};

std::string handshake(SniCertificates& sni, const char* server_name,
                      std::string* protocol = nullptr) {
  auto listener = sni.listener_context();
  Owned<SSL, SSL_free> server(SSL_new(listener->native_handle()));
  Client client(server_name);
  const auto result = testing::run_handshake(client.ssl.get(), server.get());
  if (!result.client_ok || !result.server_ok) return "(handshake failed)";
  if (protocol) *protocol = client.protocol();
  return client.peer_common_name();
}

TEST(FrontDoorSni, HandshakesPresentTheChosenCertificate) {
  SniCertificates sni(build(three_sites(), /*offer_h2=*/true), /*offer_h2=*/true);
  std::string protocol;
  EXPECT_EQ(handshake(sni, "www.a.test", &protocol), "a");
  EXPECT_EQ(protocol, "h2");
  EXPECT_EQ(handshake(sni, "api.b.test"), "b");
  EXPECT_EQ(handshake(sni, "nobody.test"), "fallback");
  EXPECT_EQ(handshake(sni, nullptr, &protocol), "fallback");
  EXPECT_EQ(protocol, "h2");
}

// With HTTP/2 off the listener answers no ALPN at all, as https imposters do then: the client
// speaks HTTP/1.1, its default.
TEST(FrontDoorSni, WithoutH2NoProtocolIsNegotiated) {
  SniCertificates sni(build(three_sites()), /*offer_h2=*/false);
  std::string protocol = "unset";
  EXPECT_EQ(handshake(sni, "a.test", &protocol), "a");
  EXPECT_EQ(protocol, "");
}

TEST(FrontDoorSni, APublishedTableServesTheNextHandshake) {
  SniCertificates sni(build(three_sites()), false);
  EXPECT_EQ(handshake(sni, "a.test"), "a");
  sni.publish(build({self_signed("renewed", {"a.test"})}));
  EXPECT_EQ(handshake(sni, "a.test"), "renewed");
  EXPECT_EQ(handshake(sni, "x.b.test"), "renewed");  // the only certificate, so the default
}

}  // namespace
}  // namespace rift::front_door
