// Mountebank validates configs with JavaScript operators (truthiness, typeof, String(), Number(),
// parseInt). These helpers reproduce those conversions on JSON values so the frontends accept and
// reject exactly what Mountebank does.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "compiler/ir.h"

namespace rift::frontends::js {

// `Boolean(v)`: false for null, false, 0, NaN and "" only ({} and [] are truthy).
bool truthy(const ir::Json& value);

// `typeof v` for a JSON value: "object" for objects, arrays and null.
std::string type_of(const ir::Json& value);

// `String(v)`, with objects as "[object Object]" and arrays joined by commas.
std::string to_string(const ir::Json& value);

// `Number(s)` for a string: trimmed, "" -> 0, hex/octal/binary prefixes, Infinity; nullopt = NaN.
std::optional<double> number_from_string(std::string_view text);

// `parseInt(s)` (radix 10 unless a 0x prefix): nullopt = NaN.
std::optional<double> parse_int(std::string_view text);

// `Object.keys(v)` order and membership for objects; arrays give their indexes, strings their
// character positions, everything else nothing.
std::size_t key_count(const ir::Json& value);

}  // namespace rift::frontends::js
