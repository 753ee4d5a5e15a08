// The TLS key and certificate an https imposter serves when it is given none
// (docs/mountebank-semantics.md §2.2).
#pragma once

#include <string_view>

namespace rift {

std::string_view default_tls_key();   // PEM, 2048-bit RSA
std::string_view default_tls_cert();  // PEM, self-signed, CN=mountebank, no SAN

}  // namespace rift
