#include "runtime/app/intercept_start.h"

#include "runtime/intercept/settings.h"

namespace rift {

bool start_intercept(const Options& options, const std::optional<ir::Json>& block,
                     Registry& registry, http::Server& server, Logger& logger,
                     std::unique_ptr<intercept::Intercept>& slot) {
  intercept::Flags flags;
  if (options.intercept_port >= 0) flags.port = options.intercept_port;
  flags.ca_cert_path = options.intercept_ca_cert;
  flags.ca_key_path = options.intercept_ca_key;
  flags.ca_cert_pem = options.intercept_ca_cert_pem;
  flags.ca_key_pem = options.intercept_ca_key_pem;
  auto from_flags = intercept::settings_from_flags(flags, options.host);
  if (auto* error = std::get_if<std::string>(&from_flags)) {
    logger.error(*error);
    return false;
  }
  std::optional<intercept::Settings> settings =
      std::get<std::optional<intercept::Settings>>(std::move(from_flags));
  if (block) {
    if (settings) {
      logger.error(
          "the config file's 'intercept' block and the --intercept-* options both start the "
          "intercept proxy: use one");
      return false;
    }
    auto read = intercept::read_settings(*block);
    if (auto* error = std::get_if<std::string>(&read)) {
      logger.error("intercept: " + *error);
      return false;
    }
    settings = std::get<intercept::Settings>(std::move(read));
  }
  if (!settings) return true;
  auto started = server.call_on_control([&] {
    return intercept::Intercept::start(registry, std::move(*settings), options.allow_injection);
  });
  if (auto* refusal = std::get_if<intercept::Refusal>(&started)) {
    logger.error("Cannot start the intercept proxy: " + refusal->message);
    return false;
  }
  slot = std::get<std::unique_ptr<intercept::Intercept>>(std::move(started));
  logger.info("Intercept proxy listening on " + slot->url());
  return true;
}

}  // namespace rift
