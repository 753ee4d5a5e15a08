// Who may talk to Rift at all (docs/mountebank-semantics.md §8.2): --localOnly and --ipWhitelist.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rift {

class ClientFilter {
 public:
  ClientFilter() = default;
  ClientFilter(bool local_only, std::vector<std::string> whitelist);
  // `address` as the socket reports it ("::ffff:127.0.0.1", "::1", "fe80::1%eth0").
  bool allows(std::string_view address) const;

 private:
  bool local_only_ = false;
  bool allow_all_ = true;
  std::vector<std::string> whitelist_;  // lower-cased
};

}  // namespace rift
