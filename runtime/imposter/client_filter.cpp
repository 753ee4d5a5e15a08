#include "runtime/imposter/client_filter.h"

#include <algorithm>

#include "compiler/ascii.h"

namespace rift {

ClientFilter::ClientFilter(bool local_only, std::vector<std::string> whitelist)
    : local_only_(local_only), allow_all_(false), whitelist_(std::move(whitelist)) {
  for (std::string& entry : whitelist_) entry = ascii::lower(entry);
  if (!local_only_) {
    allow_all_ = std::find(whitelist_.begin(), whitelist_.end(), "*") != whitelist_.end();
  }
}

bool ClientFilter::allows(std::string_view address) const {
  if (allow_all_) return true;
  const std::string client = ascii::lower(address.substr(0, address.find('%')));
  // Loopback is always allowed; the host's LAN address is not "local".
  if (client == "127.0.0.1" || client == "::ffff:127.0.0.1" || client == "::1") return true;
  if (local_only_) return false;
  // Exact equality only, as Mountebank: no CIDR, and a plain IPv4 entry never equals the
  // "::ffff:a.b.c.d" form a dual-stack listener reports.
  return std::find(whitelist_.begin(), whitelist_.end(), client) != whitelist_.end();
}

}  // namespace rift
