// What an smtp imposter's STARTTLS answers with: smtp-server's built-in self-signed certificate,
// the one Mountebank's smtp imposters present.
#pragma once

#include <string_view>

namespace rift::smtp {

extern const std::string_view kStarttlsKeyPem;
extern const std::string_view kStarttlsCertPem;

}  // namespace rift::smtp
