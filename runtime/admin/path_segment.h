// A route parameter as Express hands it to a handler: percent-decoded, so an id holding a slash
// or a space can be named in a path.
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "compiler/errors.h"

namespace rift::admin {

// The decoded segment, or a 400's error: a broken escape ("Failed to decode param", Express's
// words), or escapes spelling bytes that are not UTF-8 (no stored id could hold them, and they
// could not be written back in JSON).
std::variant<std::string, MbError> decoded_segment(std::string_view raw, std::string_view what);

}  // namespace rift::admin
