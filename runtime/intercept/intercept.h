// The intercept proxy (rift-extensions §13, docs/intercept.md): a forward proxy for clients that
// cannot be pointed at a mock. A client sends CONNECT; the listener answers, terminates the
// tunnel's TLS with a leaf minted for the host from the intercept CA, and the requests inside
// (and plain absolute-form http:// requests) are answered by rules.
//
// The rules are an imposter's stubs (frontends/intercept_rules.h), so they are planned and
// matched like any others; the imposter is private to the proxy (not in the registry) and its
// listener is the proxy's port. Everything here runs on the control thread except the listener's
// connections, which read only the published plan and the certificate cache.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "compiler/ir.h"
#include "runtime/imposter/registry.h"
#include "runtime/intercept/certificate_authority.h"

namespace rift::intercept {

class LeafCache;

// How a proxy is started: POST /intercept's body, the config file's `intercept` block, or the
// --intercept-* flags, all read into this (settings.h).
struct Settings {
  std::string host = "127.0.0.1";
  uint16_t port = 0;
  // Both or neither: the CA to mint leaves from. Neither: one is generated.
  std::optional<std::string> ca_cert_pem;
  std::optional<std::string> ca_key_pem;
  bool return_ca_key = false;  // answer a generated CA's key once, in the start reply
  ir::Json rules = ir::Json::array();
};

// A refused start or rule edit: the admin status and message.
struct Refusal {
  int status = 400;
  std::string message;
};

class Intercept {
 public:
  static std::variant<std::unique_ptr<Intercept>, Refusal> start(Registry& registry,
                                                                 Settings settings,
                                                                 bool allow_injection);
  ~Intercept();  // unbinds the port and drops its connections
  Intercept(const Intercept&) = delete;
  Intercept& operator=(const Intercept&) = delete;

  uint16_t port() const { return port_; }
  // "http://127.0.0.1:8888": what a client's proxy setting names.
  std::string url() const;
  const CertificateAuthority& authority() const { return *authority_; }
  // {interceptPort, interceptUrl}
  ir::Json status() const;

  // Appends one rule or an array of them, all or nothing; the reply is the rules added.
  std::variant<ir::Json, Refusal> add_rules(const ir::Json& value);
  size_t clear_rules();  // how many there were
  const ir::Json& rules() const { return rules_; }

  struct Passkey {};
  Intercept(Passkey, Registry& registry, bool allow_injection,
            std::shared_ptr<const CertificateAuthority> authority);

 private:
  // Plans `rules` (and the fallback) as the imposter's stubs; nothing changes on a refusal.
  std::optional<Refusal> plan(const ir::Json& rules);

  Registry& registry_;
  const bool allow_injection_;
  std::shared_ptr<const CertificateAuthority> authority_;
  std::shared_ptr<Imposter> imposter_;
  ir::Json rules_ = ir::Json::array();
  std::string host_;
  uint16_t port_ = 0;
};

}  // namespace rift::intercept
