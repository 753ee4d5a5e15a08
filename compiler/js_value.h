// JavaScript's value rules (ECMAScript ToBoolean, ToString, ToNumber, typeof, parseInt) over JSON
// values, the one implementation every stage uses: Mountebank applies these operators to configs
// and request data, so Rift must convert exactly as Node does (docs/javascript-values.md).
// A `const ir::Json*` that is nullptr stands for `undefined` (a missing property).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "compiler/ir.h"

namespace rift::js {

// ToBoolean (`Boolean(v)`, `if (v)`): false for undefined, null, false, 0, -0, NaN and "" only;
// every object and array, even {} and [], is true.
bool truthy(const ir::Json& value);
bool truthy(const ir::Json* value);

// `typeof v`: "object" for objects, arrays and null; "undefined" for nullptr.
std::string type_of(const ir::Json& value);
std::string type_of(const ir::Json* value);

// Number::toString(x): shortest round-trip digits, fixed notation for 1e-6 <= |x| < 1e21, else
// exponent form ("1e+21", "1e-7"); -0 -> "0", "NaN", "Infinity", "-Infinity".
std::string number_to_string(double value);

// `String(v)`: numbers as number_to_string (integers beyond 2**53 first rounded to a double, as
// JSON.parse reads them), null -> "null", objects "[object Object]", arrays joined by commas
// with null elements empty; nullptr -> "undefined".
std::string to_string(const ir::Json& value);
std::string to_string(const ir::Json* value);

// StringToNumber (`Number(s)`): JS whitespace trimmed (including U+00A0, U+FEFF and line
// terminators), "" -> 0, 0x/0o/0b integers, signed Infinity, decimal literals; nullopt = NaN.
std::optional<double> number_from_string(std::string_view text);

// ToNumber (`Number(v)`, `+v`): undefined NaN, null 0, booleans 0/1, strings as
// number_from_string, objects and arrays through their String() form. NaN when not a number.
double to_number(const ir::Json* value);

// ToInt32 (`x | 0`): NaN and infinities 0, otherwise truncated and wrapped modulo 2**32.
std::int32_t to_int32(double number);

// `parseInt(s)` with no radix: leading whitespace skipped, a sign, radix 16 after 0x, the longest
// run of digits; nullopt = NaN.
std::optional<double> parse_int(std::string_view text);

// `JSON.stringify(v, null, indent)` (compact for indent < 0): nlohmann's layout and escaping,
// but numbers as number_to_string ("1e-7", "0.000001", "1e+21" where dump() writes 1e-07,
// 1e-06, 1e+21); bytes that are not UTF-8 become U+FFFD, as Node decodes them.
std::string stringify(const ir::Json& value, int indent = -1);

// `s.length` of UTF-8 text: UTF-16 code units, two for each code point beyond U+FFFF.
std::size_t string_length(std::string_view text);

// `Object.keys(v).length`: members of objects, elements of arrays, UTF-16 code units of
// strings, 0 for everything else.
std::size_t key_count(const ir::Json& value);

}  // namespace rift::js
