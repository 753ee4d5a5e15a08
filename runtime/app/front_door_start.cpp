#include "runtime/app/front_door_start.h"

#include <charconv>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "runtime/front_door/certificate_specs.h"

namespace rift {

namespace {

// "8080" -> (default host, 8080); "127.0.0.1:8080", "[::1]:8080" -> (that host, 8080).
std::optional<std::pair<std::string, uint16_t>> front_door_address(const std::string& text,
                                                                   const std::string& host) {
  const size_t colon = text.rfind(':');
  std::string name = colon == std::string::npos ? host : text.substr(0, colon);
  const std::string port_text = colon == std::string::npos ? text : text.substr(colon + 1);
  if (name.size() >= 2 && name.front() == '[' && name.back() == ']') {
    name = name.substr(1, name.size() - 2);
  }
  unsigned port = 0;
  const auto [end, error] =
      std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (error != std::errc() || end != port_text.data() + port_text.size() || port > 65535 ||
      port_text.empty()) {
    return std::nullopt;
  }
  return std::pair{name, static_cast<uint16_t>(port)};
}

using Specs = std::vector<front_door::CertificateSpec>;

// The certificates asked for, none (plain HTTP), or why that cannot be.
std::variant<std::optional<Specs>, std::string> certificates_asked(
    const Options& options, const std::optional<ir::Json>& tls_block) {
  const bool flags = options.front_door_cert || options.front_door_key;
  if (options.front_door_cert.has_value() != options.front_door_key.has_value()) {
    return std::string("--frontDoorCert and --frontDoorKey go together: give both or neither");
  }
  if (flags && tls_block) {
    return std::string(
        "the config file's 'frontDoorTls' block and --frontDoorCert/--frontDoorKey both give the "
        "front door's certificates: use one");
  }
  std::variant<Specs, std::string> read;
  if (flags) {
    read = front_door::read_certificate_files(*options.front_door_cert, *options.front_door_key);
  } else if (tls_block) {
    read = front_door::read_certificate_block(*tls_block);
  } else {
    return std::optional<Specs>();
  }
  if (auto* error = std::get_if<std::string>(&read)) return "frontDoorTls: " + *error;
  return std::optional<Specs>(std::get<Specs>(std::move(read)));
}

}  // namespace

bool start_front_door(const Options& options, const std::optional<ir::Json>& tls_block,
                      front_door::FrontDoor& front_door, http::Server& server,
                      const http::Limits& limits, Logger& logger) {
  if (!options.front_door) {
    if (options.front_door_cert || options.front_door_key) {
      logger.error("--frontDoorCert/--frontDoorKey need --frontDoor: there is no front door");
      return false;
    }
    if (tls_block) logger.warn("the config file's 'frontDoorTls' is unused without --frontDoor");
    return true;
  }
  auto address = front_door_address(*options.front_door, options.host);
  if (!address) {
    logger.error("--frontDoor: '" + *options.front_door + "' is not PORT or HOST:PORT");
    return false;
  }
  auto asked = certificates_asked(options, tls_block);
  if (auto* error = std::get_if<std::string>(&asked)) {
    logger.error(*error);
    return false;
  }
  std::shared_ptr<http::TlsContext> tls;
  if (auto& specs = std::get<std::optional<Specs>>(asked)) {
    auto built = front_door::CertificateTable::build(*specs, limits.http2);
    if (auto* error = std::get_if<std::string>(&built)) {
      logger.error("frontDoorTls: " + *error);
      return false;
    }
    front_door.serve_tls(std::get<std::shared_ptr<const front_door::CertificateTable>>(built),
                         limits.http2);
    tls = front_door.tls()->listener_context();
  }
  auto handler = std::make_shared<const http::Handler>(
      [&front_door](http::Message&& message, http::Respond respond) {
        front_door.handle(std::move(message), std::move(respond));
      });
  auto bound = server.listen(address->first, address->second, handler, limits,
                             /*on_control=*/false, tls);
  if (auto* error = std::get_if<std::string>(&bound)) {
    logger.error("Cannot listen on front door " + *options.front_door + ": " + *error);
    return false;
  }
  logger.info("Front door listening on port " + std::to_string(std::get<uint16_t>(bound)) +
              (tls ? " (https, certificates by SNI)" : ""));
  return true;
}

}  // namespace rift
