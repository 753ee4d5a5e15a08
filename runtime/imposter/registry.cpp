#include "runtime/imposter/registry.h"

#include "frontends/rift_fault.h"
#include "runtime/imposter/tls.h"
#include "runtime/smtp/smtp_connection.h"
#include "runtime/tcp/tcp_connection.h"

namespace rift {

namespace {

// A TCP-level fault (Mountebank's `fault`, a `_rift.fault` tcp part) acts on the connection, which
// an h2 stream does not own: such an imposter speaks HTTP/1 only (rift-extensions §5), decided
// when it is created.
bool has_tcp_faults(const ir::Imposter& config) {
  for (const ir::Stub& stub : config.stubs) {
    for (const ir::Response& response : stub.responses) {
      // An unknown fault name is answered with the default response: no TCP fault at all.
      if (response.kind == ir::ResponseKind::kFault && response.value.is_string() &&
          frontends::tcp_fault_kind(response.value.get<std::string>())) {
        return true;
      }
      if (response.fault && response.fault->tcp) return true;
    }
  }
  return false;
}

}  // namespace

Registry::Registry(http::Server& server, ServingOptions serving, http::Limits limits,
                   std::string default_host, int admin_port)
    : server_(server),
      serving_(std::move(serving)),
      limits_(limits),
      default_host_(std::move(default_host)),
      admin_port_(admin_port) {}

std::variant<std::shared_ptr<Imposter>, MbError> Registry::add(ir::Imposter config) {
  const int requested = config.port.value_or(0);
  if (requested != 0 && (imposters_.count(requested) || requested == admin_port_)) {
    return MbError{"resource conflict", "Port " + std::to_string(requested) + " is already in use",
                   std::nullopt};
  }
  const std::string host = config.host.value_or(default_host_);
  http::Limits limits = limits_;
  limits.http2 = limits_.http2 && !has_tcp_faults(config);
  std::shared_ptr<http::TlsContext> tls;
  if (config.protocol == "https") {
    auto made = make_imposter_tls(config.tls, limits.http2);
    if (auto* error = std::get_if<MbError>(&made)) return *error;
    tls = std::get<std::shared_ptr<http::TlsContext>>(std::move(made));
  }
  auto created = Imposter::create(std::move(config), serving_);
  if (auto* error = std::get_if<MbError>(&created)) return *error;
  auto imposter = std::get<std::shared_ptr<Imposter>>(std::move(created));

  auto handler = std::make_shared<const http::Handler>(
      [imposter](http::Message&& message, http::Respond respond) {
        imposter->handle(std::move(message), std::move(respond));
      });
  if (imposter->config().protocol == "tcp") {
    tcp::Framing framing;
    framing.max_request_bytes = limits.max_body_bytes;
    if (imposter->config().end_of_request_resolver) {
      framing.ends_request = [weak = std::weak_ptr<Imposter>(imposter)](const std::string& data) {
        const auto alive = weak.lock();
        return !alive || alive->ends_request(data);
      };
    }
    limits.raw_connections = tcp::connections(handler, std::move(framing));
  }
  if (imposter->config().protocol == "smtp") {
    auto mail = std::make_shared<const smtp::MailHandler>(
        [imposter](smtp::SmtpMail&& message, const std::string& remote_address, uint16_t) {
          imposter->handle_mail(message, remote_address);
        });
    smtp::SmtpLimits smtp_limits;
    smtp_limits.max_message_bytes = limits.max_body_bytes;
    limits.raw_connections = smtp::smtp_connections(std::move(mail), smtp_limits);
  }
  auto bound = server_.listen(host, static_cast<uint16_t>(requested), handler, limits,
                              /*on_control=*/false, std::move(tls));
  if (auto* error = std::get_if<std::string>(&bound)) {
    if (*error == "EACCES") {
      return MbError{"insufficient access", "Run mb in superuser mode if you want access",
                     std::nullopt};
    }
    return MbError{"resource conflict", "Port " + std::to_string(requested) + " is already in use",
                   std::nullopt};
  }
  const int port = std::get<uint16_t>(bound);
  if (port != requested) imposter->set_port(port);
  imposters_[port] = imposter;
  ever_added_ = true;
  publish();
  return imposter;
}

std::shared_ptr<Imposter> Registry::find(int port) const {
  auto it = imposters_.find(port);
  return it == imposters_.end() ? nullptr : it->second;
}

std::shared_ptr<Imposter> Registry::remove(int port) {
  auto it = imposters_.find(port);
  if (it == imposters_.end()) return nullptr;
  auto imposter = it->second;
  imposters_.erase(it);
  publish();
  server_.close(static_cast<uint16_t>(port));
  return imposter;
}

std::shared_ptr<Imposter> Registry::find_published(int port) const {
  const auto published = published_.load(std::memory_order_acquire);
  auto it = published->find(port);
  return it == published->end() ? nullptr : it->second;
}

void Registry::publish() {
  published_.store(std::make_shared<const std::map<int, std::shared_ptr<Imposter>>>(imposters_),
                   std::memory_order_release);
}

std::vector<std::shared_ptr<Imposter>> Registry::list() const {
  std::vector<std::shared_ptr<Imposter>> out;
  out.reserve(imposters_.size());
  for (const auto& [port, imposter] : imposters_) out.push_back(imposter);
  return out;
}

void Registry::remove_all() {
  while (!imposters_.empty()) remove(imposters_.begin()->first);
}

}  // namespace rift
