// What the front door's TLS is told to present (docs/front-door.md#tls): certificate and key
// pairs, each for the hosts it names, read from the `frontDoorTls` block of a config file or of
// PUT /front-door/certificates, or from --frontDoorCert/--frontDoorKey.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "compiler/ir.h"

namespace rift::front_door {

struct CertificateSpec {
  std::string cert_pem;  // the certificate, optionally followed by its chain
  std::string key_pem;
  // Host names (exact, or one leading `*.` label) this certificate answers SNI for; empty: the
  // names the certificate itself carries (its DNS subjectAltNames, else its common name).
  std::vector<std::string> hosts;
  bool is_default = false;  // presented when no certificate claims the SNI (or there is none)
  std::string source;       // the file it came from, or "inline": shown by GET, never the PEM
};

// `{"certificates": [{"certPath"|"cert", "keyPath"|"key", "hosts"?, "default"?}, ...]}`, or the
// list alone. Files are read now. Errors name the entry: "certificates[1]: cannot read key
// /x.pem".
std::variant<std::vector<CertificateSpec>, std::string> read_certificate_block(
    const ir::Json& block);

// --frontDoorCert/--frontDoorKey: one certificate, the default, for the names it carries.
std::variant<std::vector<CertificateSpec>, std::string> read_certificate_files(
    const std::string& cert_path, const std::string& key_path);

}  // namespace rift::front_door
