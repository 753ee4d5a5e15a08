// Where a proxy's recording goes in the stub list (docs/mountebank-semantics.md §5.6 "Modes").
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "compiler/errors.h"
#include "compiler/ir.h"

namespace rift::proxy {

struct Recorded {
  std::vector<ir::Stub> stubs;
  std::vector<int> keep;  // for Imposter::set_stubs: which old stub each new one continues
};

// proxyOnce: a new stub in front of the proxy (at its index). proxyAlways: appended to the first
// later stub with the same predicates (key order ignored), else a new stub at the end.
// `new_response` is {"is": capture, ["behaviors": ...]}.
std::variant<Recorded, MbError> record(const std::vector<ir::Stub>& stubs, size_t proxy_index,
                                       const std::string& mode, const ir::Json& predicates,
                                       const ir::Json& new_response);

}  // namespace rift::proxy
