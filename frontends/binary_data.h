// Binary-mode tcp predicates (docs/tcp.md#binary-mode): what a `data` predicate expects is
// base64, and Mountebank decodes it, like the request's data, before comparing.
#pragma once

#include <optional>
#include <vector>

#include "compiler/errors.h"
#include "compiler/ir.h"

namespace rift::frontends {

// Rewrites every `data` value under the field operators of `predicates` (children of not/or/and
// included) to the text its base64 decodes to (invalid UTF-8 as U+FFFD, as Node's
// Buffer.toString does), which is the text a binary tcp request carries in Request::path. Such
// predicates compare case-sensitively: the bytes are compared, not their letters.
void decode_binary_data(std::vector<ir::Predicate>& predicates);

// What Mountebank's dry run refuses in binary mode, the first in evaluation order: a jsonpath or
// xpath selector, or a `matches` (children of not/or/and included).
std::optional<MbError> binary_mode_error(const std::vector<ir::Predicate>& predicates);

}  // namespace rift::frontends
