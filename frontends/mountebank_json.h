// Mountebank's admin JSON (an imposter, or a stub) to the typed IR, with Mountebank's creation
// validation: every error of every stub, in Mountebank's order, with its messages and sources.
// Constructs Mountebank accepts but Rift cannot serve yet (proxy, inject, fault, decorate ...)
// are kept in the IR as data; the runtime reports them when a request reaches them.
#pragma once

#include <variant>

#include "compiler/errors.h"
#include "compiler/ir.h"

namespace rift {
class PredicateValidator;
}

namespace rift::frontends {

struct ParseOptions {
  bool allow_injection = false;
  // The imposter's `_rift.scripts` (named scripts a `_rift.script.ref` names); null: none.
  const ir::Json* scripts = nullptr;
  // A binary-mode tcp imposter's stubs (docs/tcp.md#binary-mode): the `data` their predicates
  // expect is base64, compared as the bytes it decodes to.
  bool binary_data = false;
};

// Admin body of POST /imposters (or one element of PUT /imposters / a configfile) -> IR, or
// every validation error Mountebank would report.
std::variant<ir::Imposter, MbErrors> parse_imposter(const ir::Json& body,
                                                    const ParseOptions& options);
// The same, moving the body's stubs into the IR instead of copying them (a 10,000-stub body is
// megabytes of JSON tree): afterwards `body` keeps everything but its stubs' contents.
std::variant<ir::Imposter, MbErrors> parse_imposter_moving_stubs(ir::Json& body,
                                                                 const ParseOptions& options);

// How stubs added to a running `imposter` are parsed: its named scripts, its tcp mode.
ParseOptions stub_options(const ir::ImposterSettings& imposter, bool allow_injection);

// One stub (PUT/POST .../stubs, PUT .../stubs/:i) -> IR, same validation as inside an imposter.
std::variant<ir::Stub, MbErrors> parse_stub(const ir::Json& stub, const ParseOptions& options);
// The same with the dry run's validator shared by all stubs of an imposter, taking the stub by
// value (moved in when the caller is done with it).
std::variant<ir::Stub, MbErrors> parse_stub(ir::Json stub, const ParseOptions& options,
                                            PredicateValidator& validator);

}  // namespace rift::frontends
