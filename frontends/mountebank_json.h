// Mountebank's admin JSON (an imposter, or a stub) to the typed IR, with Mountebank's creation
// validation: every error of every stub, in Mountebank's order, with its messages and sources.
// Constructs Mountebank accepts but Rift cannot serve yet (proxy, inject, fault, decorate ...)
// are kept in the IR as data; the runtime reports them when a request reaches them.
#pragma once

#include <variant>

#include "compiler/errors.h"
#include "compiler/ir.h"

namespace rift::frontends {

struct ParseOptions {
  bool allow_injection = false;
};

// Admin body of POST /imposters (or one element of PUT /imposters / a configfile) -> IR, or
// every validation error Mountebank would report.
std::variant<ir::Imposter, MbErrors> parse_imposter(const ir::Json& body,
                                                    const ParseOptions& options);

// One stub (PUT/POST .../stubs, PUT .../stubs/:i) -> IR, same validation as inside an imposter.
std::variant<ir::Stub, MbErrors> parse_stub(const ir::Json& stub, const ParseOptions& options);

}  // namespace rift::frontends
