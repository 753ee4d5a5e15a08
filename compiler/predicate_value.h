// JavaScript semantics over JSON as Mountebank's predicates see request data
// (docs/mountebank-semantics.md §4.3): toLowerCase and property access on arrays. The value
// conversions (String(), truthiness, Number()) are compiler/js_value.h, included here for every
// predicate stage.
#pragma once

#include <string>
#include <string_view>

#include "compiler/ir.h"
#include "compiler/js_value.h"

namespace rift::js {

// object or array (helpers.isObject; null excluded).
inline bool is_object(const ir::Json& value) {
  return value.is_object() || value.is_array();
}

// String.prototype.toLowerCase for UTF-8: ASCII plus Latin-1, Latin Extended-A, Greek and
// Cyrillic; other characters are unchanged.
std::string lower(std::string_view text);
void lower_in_place(std::string& text);

// value[key] for objects and arrays (canonical indexes and "length"); nullptr when undefined.
// Strings expose no properties (docs/mountebank-semantics.md §4.3 step 2). `scratch` holds a
// computed "length".
const ir::Json* property(const ir::Json& value, const std::string& key, ir::Json& scratch);

}  // namespace rift::js
