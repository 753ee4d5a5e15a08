// The intercept CA packaged as a Java trust store, so a JVM under test trusts the proxy's
// leaves through -Djavax.net.ssl.trustStore=... with no keytool step on the user's side.
//
// Both files hold the CA certificate only (never its key), as one trusted-certificate entry
// under the alias "rift-intercept-ca". PKCS#12 is the JDK's default store type since Java 9;
// JKS is for older JVMs and tools that still insist on it.
#pragma once

#include <string>
#include <string_view>

#include "runtime/intercept/certificate_authority.h"

namespace rift::intercept {

inline constexpr std::string_view kTrustStoreAlias = "rift-intercept-ca";

// A PKCS#12 file whose single certificate bag carries Oracle's trusted-key-usage attribute
// (anyExtendedKeyUsage), which is what makes Java's KeyStore load it as a trustedCertEntry;
// integrity-protected by a SHA-256 MAC under `password` (UTF-8). Throws std::runtime_error if
// OpenSSL fails.
std::string export_pkcs12(const CertificateAuthority& ca, std::string_view password);

// A Sun JKS keystore (version 2) with the CA as a trusted-certificate entry, sealed with the
// keystore's SHA-1 integrity digest under `password` (UTF-8; bytes that are not UTF-8 count as
// U+FFFD, as Java would decode them). Throws std::runtime_error if OpenSSL fails.
std::string export_jks(const CertificateAuthority& ca, std::string_view password);

}  // namespace rift::intercept
