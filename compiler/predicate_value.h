// JavaScript value semantics over JSON, as Mountebank's predicates see request data (spec 4.3):
// String() conversion, truthiness, toLowerCase, and property access on arrays.
#pragma once

#include <string>
#include <string_view>

#include "compiler/ir.h"

namespace rift::js {

// Number.prototype.toString(): shortest round-trip digits, exponent form outside [1e-7, 1e21).
std::string number_to_string(double value);

// String(value): null -> "null", arrays joined with "," (null elements empty), objects
// "[object Object]".
std::string to_string(const ir::Json& value);

// JavaScript truthiness; nullptr stands for `undefined`.
bool truthy(const ir::Json* value);

// object or array (helpers.isObject; null excluded).
inline bool is_object(const ir::Json& value) {
  return value.is_object() || value.is_array();
}

// String.prototype.toLowerCase for UTF-8: ASCII plus Latin-1, Latin Extended-A, Greek and
// Cyrillic; other characters are unchanged.
std::string lower(std::string_view text);
void lower_in_place(std::string& text);

// value[key] for objects and arrays (canonical indexes and "length"); nullptr when undefined.
// Strings expose no properties (spec 4.3 step 2). `scratch` holds a computed "length".
const ir::Json* property(const ir::Json& value, const std::string& key, ir::Json& scratch);

}  // namespace rift::js
