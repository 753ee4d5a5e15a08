#include "runtime/intercept/intercept.h"

#include <boost/asio/ssl/context.hpp>

#include "frontends/intercept_rules.h"
#include "frontends/mountebank_json.h"
#include "runtime/http/tunnel_terminator.h"
#include "runtime/intercept/leaf_cache.h"

namespace rift::intercept {

namespace {

// A client that opens a tunnel and never finishes its handshake is dropped this soon (the
// imposters' 120 s is Node's; a proxy's clients handshake at once or not at all).
constexpr auto kTunnelHandshakeTimeout = std::chrono::seconds(10);

// What the listener's connections ask for. Kept apart from Intercept, so the listener (which the
// server holds until the port is closed) keeps only the certificates alive, never the rules.
class TunnelCertificates final : public http::TunnelTerminator {
 public:
  explicit TunnelCertificates(std::shared_ptr<LeafCache> leaves)
      : leaves_(std::move(leaves)), context_(http::TlsContext::tls_server) {
    context_.set_options(http::TlsContext::default_workarounds | http::TlsContext::no_sslv2 |
                         http::TlsContext::no_sslv3 | http::TlsContext::no_tlsv1 |
                         http::TlsContext::no_tlsv1_1);
    leaves_->install_sni(context_.native_handle());
  }
  http::TlsContext& context() override { return context_; }
  bool prepare(SSL* ssl, std::string_view host) override { return leaves_->use_leaf(ssl, host); }

 private:
  std::shared_ptr<LeafCache> leaves_;
  http::TlsContext context_;
};

std::variant<std::shared_ptr<const CertificateAuthority>, Refusal> authority_for(
    const Settings& settings) {
  if (settings.ca_cert_pem.has_value() != settings.ca_key_pem.has_value()) {
    return Refusal{400, "the intercept CA needs both its certificate and its key, or neither"};
  }
  if (settings.ca_cert_pem && settings.return_ca_key) {
    return Refusal{400, "returnCaKey applies only to a CA Rift generates; this one was given"};
  }
  auto made = settings.ca_cert_pem
                  ? CertificateAuthority::from_pem(*settings.ca_cert_pem, *settings.ca_key_pem)
                  : CertificateAuthority::generate();
  if (auto* error = std::get_if<std::string>(&made)) return Refusal{400, *error};
  return std::make_shared<const CertificateAuthority>(
      std::get<CertificateAuthority>(std::move(made)));
}

}  // namespace

Intercept::Intercept(Passkey, Registry& registry, bool allow_injection,
                     std::shared_ptr<const CertificateAuthority> authority)
    : registry_(registry), allow_injection_(allow_injection), authority_(std::move(authority)) {}

std::variant<std::unique_ptr<Intercept>, Refusal> Intercept::start(Registry& registry,
                                                                   Settings settings,
                                                                   bool allow_injection) {
  if (settings.port != 0 && registry.port_taken(settings.port)) {
    return Refusal{400, "port " + std::to_string(settings.port) + " is already in use"};
  }
  auto authority = authority_for(settings);
  if (auto* refusal = std::get_if<Refusal>(&authority)) return *refusal;
  auto intercept = std::make_unique<Intercept>(
      Passkey{}, registry, allow_injection,
      std::get<std::shared_ptr<const CertificateAuthority>>(std::move(authority)));

  auto rules = frontends::read_intercept_rules(settings.rules);
  if (auto* error = std::get_if<std::string>(&rules)) return Refusal{400, *error};
  ir::Json& read = std::get<ir::Json>(rules);
  if (read.size() > frontends::kMaxInterceptRules) {
    return Refusal{429, "intercept rule store is at capacity (" +
                            std::to_string(frontends::kMaxInterceptRules) +
                            " rules); delete rules before adding more"};
  }
  // The imposter starts empty and gets its stubs through plan(), like every later edit.
  auto config = frontends::parse_imposter(ir::Json{{"protocol", "http"}}, {});
  if (auto* errors = std::get_if<MbErrors>(&config)) {
    return Refusal{500,
                   errors->empty() ? "cannot make the rules' imposter" : errors->front().message};
  }
  auto created = Imposter::create(std::get<ir::Imposter>(std::move(config)), registry.serving());
  if (auto* error = std::get_if<MbError>(&created)) return Refusal{500, error->message};
  intercept->imposter_ = std::get<std::shared_ptr<Imposter>>(std::move(created));
  if (auto refusal = intercept->plan(read)) return *refusal;
  intercept->rules_ = std::move(read);

  http::Limits limits = registry.limits();
  limits.connect_tunnels_to_self = false;
  // HTTP/2 inside the tunnel when the imposters speak it: ALPN on every leaf.
  limits.terminate_tunnels = std::make_shared<TunnelCertificates>(std::make_shared<LeafCache>(
      intercept->authority_, LeafCache::kDefaultCapacity, limits.http2));
  limits.tls_handshake_timeout = kTunnelHandshakeTimeout;
  auto handler = std::make_shared<const http::Handler>(
      [imposter = intercept->imposter_](http::Message&& message, http::Respond respond) {
        imposter->handle(std::move(message), std::move(respond));
      });
  auto bound = registry.server().listen(settings.host, settings.port, handler, limits);
  if (auto* error = std::get_if<std::string>(&bound)) {
    return Refusal{400, "cannot listen on " + settings.host + ":" + std::to_string(settings.port) +
                            ": " + *error};
  }
  intercept->port_ = std::get<uint16_t>(bound);
  intercept->host_ = settings.host;
  intercept->imposter_->set_port(intercept->port_);
  return intercept;
}

Intercept::~Intercept() {
  if (port_ != 0) registry_.server().close(port_);
}

std::string Intercept::url() const {
  const bool v6 = host_.find(':') != std::string::npos;
  return "http://" + (v6 ? "[" + host_ + "]" : host_) + ":" + std::to_string(port_);
}

ir::Json Intercept::status() const {
  return ir::Json{{"interceptPort", port_}, {"interceptUrl", url()}};
}

std::optional<Refusal> Intercept::plan(const ir::Json& rules) {
  std::vector<ir::Stub> stubs;
  stubs.reserve(rules.size() + 1);
  const frontends::ParseOptions options{.allow_injection = allow_injection_};
  for (size_t i = 0; i <= rules.size(); ++i) {
    const ir::Json stub = i < rules.size() ? frontends::intercept_rule_stub(rules[i])
                                           : frontends::intercept_fallback_stub();
    auto parsed = frontends::parse_stub(stub, options);
    if (auto* errors = std::get_if<MbErrors>(&parsed)) {
      const std::string message = errors->empty() ? "invalid rule" : errors->front().message;
      return Refusal{400, "rule " + std::to_string(i) + ": " + message};
    }
    stubs.push_back(std::get<ir::Stub>(std::move(parsed)));
  }
  if (auto error = imposter_->set_stubs(std::move(stubs), std::vector<int>(rules.size() + 1, -1))) {
    return Refusal{400, error->message};
  }
  return std::nullopt;
}

std::variant<ir::Json, Refusal> Intercept::add_rules(const ir::Json& value) {
  auto read = frontends::read_intercept_rules(value);
  if (auto* error = std::get_if<std::string>(&read)) return Refusal{400, *error};
  const ir::Json& added = std::get<ir::Json>(read);
  if (rules_.size() + added.size() > frontends::kMaxInterceptRules) {
    return Refusal{429, "intercept rule store is at capacity (" +
                            std::to_string(frontends::kMaxInterceptRules) +
                            " rules); delete rules before adding more"};
  }
  ir::Json rules = rules_;
  for (const ir::Json& rule : added) rules.push_back(rule);
  if (auto refusal = plan(rules)) return *refusal;
  rules_ = std::move(rules);
  return added;
}

size_t Intercept::clear_rules() {
  const size_t count = rules_.size();
  plan(ir::Json::array());
  rules_ = ir::Json::array();
  return count;
}

}  // namespace rift::intercept
