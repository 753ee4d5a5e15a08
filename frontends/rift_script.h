// A response's `_rift.script` (the reference Rift's Script API v2, docs/scripts.md): which engine,
// and the source, checked for shape here; its syntax is checked when the imposter is built,
// by the engine that will run it.
#pragma once

#include <optional>
#include <variant>

#include "compiler/errors.h"
#include "compiler/ir.h"

namespace rift::frontends {

// Unset without a script (no `_rift`, or `"script": null`); else {"engine", "code"} with the
// engine as written ("javascript" or its alias "js"), or the 400 error: a shape the reference
// refuses, a Rhai script (Rift runs JavaScript; the error says how to port it), a `file` or `ref`
// this build cannot resolve (`file`), or an unknown `ref`.
// `registry` is the imposter's `_rift.scripts` (named scripts a `ref` names), or null.
std::variant<std::optional<ir::Json>, MbError> parse_rift_script(const ir::Json& response,
                                                                 const ir::Json* registry);

// The `_rift.scripts` object of an imposter's `_rift` block, or null.
const ir::Json* script_registry(const std::optional<ir::Json>& rift);

// True when `response` carries a script the --allowInjection gate must see.
bool has_rift_script(const ir::Json& response);

}  // namespace rift::frontends
