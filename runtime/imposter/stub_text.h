// A stub's admin-API text, kept with the imposter so an edit does not re-serialize them all.
//
// Mountebank answers every stub edit with the whole imposter; turning hundreds of unchanged
// stubs back into JSON text on each edit was ~40% of an edit's cost. The text is exactly what
// nlohmann's dump(2) prints for the stub inside an imposter document, so both renderings agree
// byte for byte (tests/unit/runtime/imposter_text_test.cpp).
#pragma once

#include <memory>
#include <string>

#include "compiler/ir.h"

namespace rift {

// `source` as dump(2) prints it at depth 2 of an imposter document ("stubs": [ here ]), up to
// its closing brace, so that `_links` can follow. Null when it cannot be reused verbatim: not a
// non-empty object, or carrying a `_links` of its own (which the rendering overwrites in place).
std::shared_ptr<const std::string> stub_text(const ir::Json& source);

// Appends a stub: its cached `text`, then `"_links": {"self": {"href": href}}` and the brace.
void append_stub(std::string& out, const std::string& text, const std::string& href);

}  // namespace rift
