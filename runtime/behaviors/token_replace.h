// Replacement for `copy` and `lookup` (docs/mountebank-semantics.md §6.2, Replacement), as
// Mountebank's globalObjectReplace does it: every string value and every object key anywhere in the
// response is rewritten, literally and globally (split + join, no regex).
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "compiler/ir.h"
#include "runtime/behaviors/csv.h"
#include "runtime/behaviors/selection.h"

namespace rift::behaviors {

// `text.split(token).join(replacement)`; an undefined replacement joins with "," as
// Array.prototype.join(undefined) does. An empty token splits between characters.
std::string replace_all(std::string_view text, std::string_view token, const JsText& replacement);

// Applies `rewrite` to every string value and object key in `response`. A key that changes moves
// to the end of its object (delete + add, as in JavaScript) and replaces a same-named key.
void rewrite_strings(ir::Json& response, const std::function<std::string(std::string)>& rewrite);

// copy: `TOKEN[i]` -> values[i] for every i, then `TOKEN` -> values[0] (when there is one).
void replace_indexed(ir::Json& response, const std::string& token, const Selection& values);

// lookup: `TOKEN["col"]`, `TOKEN['col']` and `TOKEN[col]` -> the row's cell, column by column.
void replace_columns(ir::Json& response, const std::string& token, const CsvRow& row);

}  // namespace rift::behaviors
