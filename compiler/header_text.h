// The one rule for header names and values a stub, a script or a proxy asks Rift to write: no
// CR, LF or NUL, the bytes that would end a header line early and let a value inject headers (or
// a whole response) it never declared. Node refuses such a value in setHeader (ERR_INVALID_CHAR).
// Checked when a stub is created (400 naming the header) and again when a computed response is
// rendered (500), so no raw CR or LF ever reaches the wire.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "compiler/ir.h"

namespace rift::header_text {

// Whether `text` is safe inside one header line.
bool writable(std::string_view text);

// nullopt when every name and value of a `headers` object is writable (values as the renderer
// writes them: strings, numbers, booleans, or arrays of them, one line each); else a message
// naming the first bad header, e.g. `invalid character in header "X-A" (CR, LF or NUL)`.
std::optional<std::string> problem(const ir::Json& headers);

}  // namespace rift::header_text
