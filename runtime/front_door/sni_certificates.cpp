#include "runtime/front_door/sni_certificates.h"

#include <openssl/bio.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <cctype>
#include <ctime>

#include "compiler/ascii.h"
#include "runtime/base/openssl_owned.h"

namespace rift::front_door {

namespace {

using Specs = std::vector<CertificateSpec>;

bool valid_dns_name(std::string_view name) {
  if (name.empty() || name.size() > 253) return false;
  size_t start = 0;
  while (start <= name.size()) {
    size_t end = name.find('.', start);
    if (end == std::string_view::npos) end = name.size();
    const std::string_view label = name.substr(start, end - start);
    if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-') {
      return false;
    }
    for (char c : label) {
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_')) return false;
    }
    start = end + 1;
  }
  return true;
}

// A DNS name, or `*.` and one: the forms a certificate's subjectAltName may take.
bool valid_host(std::string_view host) {
  if (host.starts_with("*.")) host.remove_prefix(2);
  return valid_dns_name(host);
}

std::string text_of(const ASN1_STRING* string) {
  return std::string(reinterpret_cast<const char*>(ASN1_STRING_get0_data(string)),
                     static_cast<size_t>(ASN1_STRING_length(string)));
}

// The names a client checks the certificate against (RFC 6125): its DNS subjectAltNames, or its
// common name when it has none. Names no SNI can carry (an IP address) are left out.
std::vector<std::string> names_in(X509* cert) {
  std::vector<std::string> names;
  Owned<GENERAL_NAMES, GENERAL_NAMES_free> alt_names(
      static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(cert, NID_subject_alt_name, nullptr, nullptr)));
  for (int i = 0; alt_names && i < sk_GENERAL_NAME_num(alt_names.get()); ++i) {
    const GENERAL_NAME* name = sk_GENERAL_NAME_value(alt_names.get(), i);
    if (name->type == GEN_DNS) names.push_back(ascii::lower(text_of(name->d.dNSName)));
  }
  if (names.empty()) {
    X509_NAME* subject = X509_get_subject_name(cert);
    const int at = X509_NAME_get_index_by_NID(subject, NID_commonName, -1);
    if (at >= 0) {
      names.push_back(
          ascii::lower(text_of(X509_NAME_ENTRY_get_data(X509_NAME_get_entry(subject, at)))));
    }
  }
  std::erase_if(names, [](const std::string& name) { return !valid_host(name); });
  return names;
}

std::string subject_of(X509* cert) {
  Owned<BIO, BIO_free> bio(BIO_new(BIO_s_mem()));
  X509_NAME_print_ex(bio.get(), X509_get_subject_name(cert), 0, XN_FLAG_RFC2253);
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<size_t>(size));
}

std::string not_after_of(X509* cert) {
  std::tm time{};
  if (ASN1_TIME_to_tm(X509_get0_notAfter(cert), &time) != 1) return "";
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &time);
  return text;
}

std::string lower_without_trailing_dot(std::string_view name) {
  if (!name.empty() && name.back() == '.') name.remove_suffix(1);
  return ascii::lower(name);
}

}  // namespace

std::variant<std::shared_ptr<const CertificateTable>, std::string> CertificateTable::build(
    const Specs& specs, bool offer_h2) {
  if (specs.empty()) return std::string("the front door's TLS needs at least one certificate");
  auto table = std::make_shared<CertificateTable>();
  std::optional<size_t> chosen_default;
  for (size_t i = 0; i < specs.size(); ++i) {
    const CertificateSpec& spec = specs[i];
    const std::string where = "certificates[" + std::to_string(i) + "]";
    http::TlsSettings settings;
    settings.cert_pem = spec.cert_pem;
    settings.key_pem = spec.key_pem;
    settings.offer_h2 = offer_h2;
    auto made = http::make_tls_context(settings);
    if (auto* error = std::get_if<http::TlsError>(&made)) {
      return where + ": " + error->error_text;
    }
    Entry entry;
    entry.context = std::get<std::shared_ptr<http::TlsContext>>(made);
    X509* cert = SSL_CTX_get0_certificate(entry.context->native_handle());
    entry.subject = subject_of(cert);
    entry.not_after = not_after_of(cert);
    entry.source = spec.source;
    entry.hosts_given = !spec.hosts.empty();
    if (entry.hosts_given) {
      for (const std::string& host : spec.hosts) {
        if (!valid_host(host)) {
          return where + ": host '" + host +
                 "' is not a DNS name or a wildcard of one leading '*.' label";
        }
        entry.hosts.push_back(lower_without_trailing_dot(host));
      }
    } else {
      entry.hosts = names_in(cert);
    }
    std::sort(entry.hosts.begin(), entry.hosts.end());
    entry.hosts.erase(std::unique(entry.hosts.begin(), entry.hosts.end()), entry.hosts.end());
    for (const std::string& host : entry.hosts) {
      const bool wildcard = host.starts_with("*.");
      auto& index = wildcard ? table->wildcard_ : table->exact_;
      auto [claimed, inserted] = index.emplace(wildcard ? host.substr(2) : host, i);
      if (!inserted) {
        return where + ": host '" + host + "' is already claimed by certificates[" +
               std::to_string(claimed->second) +
               "]; give each certificate the 'hosts' it should answer for";
      }
    }
    if (spec.is_default) {
      if (chosen_default) {
        return where + ": certificates[" + std::to_string(*chosen_default) +
               "] is already the default; only one may be";
      }
      chosen_default = i;
    }
    table->entries_.push_back(std::move(entry));
  }
  table->default_ = chosen_default.value_or(0);
  return std::shared_ptr<const CertificateTable>(std::move(table));
}

SSL_CTX* CertificateTable::select(std::string_view server_name) const {
  if (!server_name.empty()) {
    const std::string name = lower_without_trailing_dot(server_name);
    if (auto exact = exact_.find(name); exact != exact_.end()) {
      return entries_[exact->second].context->native_handle();
    }
    // A certificate wildcard stands for exactly one label (RFC 6125 §6.4.3).
    if (const size_t dot = name.find('.'); dot != std::string::npos) {
      if (auto wildcard = wildcard_.find(name.substr(dot + 1)); wildcard != wildcard_.end()) {
        return entries_[wildcard->second].context->native_handle();
      }
    }
  }
  return entries_[default_].context->native_handle();
}

ir::Json CertificateTable::describe() const {
  ir::Json list = ir::Json::array();
  for (size_t i = 0; i < entries_.size(); ++i) {
    const Entry& entry = entries_[i];
    list.push_back({{"hosts", entry.hosts},
                    {"namesFrom", entry.hosts_given ? "hosts" : "certificate"},
                    {"subject", entry.subject},
                    {"notAfter", entry.not_after},
                    {"default", i == default_},
                    {"source", entry.source}});
  }
  return ir::Json{{"certificates", std::move(list)}};
}

SniCertificates::SniCertificates(std::shared_ptr<const CertificateTable> table, bool offer_h2)
    : table_(std::move(table)), offer_h2_(offer_h2) {}

std::shared_ptr<http::TlsContext> SniCertificates::listener_context() {
  auto context = std::make_shared<http::TlsContext>(http::TlsContext::tls_server);
  SSL_CTX* native = context->native_handle();
  context->set_options(http::TlsContext::default_workarounds | http::TlsContext::no_compression);
  SSL_CTX_set_min_proto_version(native, TLS1_2_VERSION);
  if (offer_h2_) http::offer_h2(native);
  static constexpr unsigned char kSessionContext[] = "rift";
  SSL_CTX_set_session_id_context(native, kSessionContext, sizeof kSessionContext - 1);
  // OpenSSL calls this for every ClientHello, with SNI or without, before choosing a cipher.
  SSL_CTX_set_tlsext_servername_callback(native, &SniCertificates::on_servername);
  SSL_CTX_set_tlsext_servername_arg(native, this);
  return context;
}

void SniCertificates::publish(std::shared_ptr<const CertificateTable> table) {
  table_.store(std::move(table));
}

std::shared_ptr<const CertificateTable> SniCertificates::table() const {
  return table_.load();
}

int SniCertificates::on_servername(SSL* ssl, int*, void* arg) {
  const auto table = static_cast<SniCertificates*>(arg)->table_.load();
  const char* name = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name);
  // SSL_set_SSL_CTX takes its own reference: a table swapped out mid-handshake stays valid.
  SSL_set_SSL_CTX(ssl, table->select(name ? name : ""));
  return SSL_TLSEXT_ERR_OK;
}

}  // namespace rift::front_door
