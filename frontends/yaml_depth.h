// A linear pre-scan that bounds how deeply a YAML text can nest, run before yaml-cpp (whose
// recursive-descent parser overflows the stack on a long run of `[` or of indented levels).
#pragma once

#include <cstddef>
#include <string_view>

namespace rift::frontends {

// Whether `text` may nest deeper than `limit`. The estimate never undercounts the depth yaml-cpp
// would reach: per line, the open indentation levels, plus the `- `/`? ` indicators that open a
// nested collection on the same line, plus the flow brackets still open. Quoted scalars,
// comments and block scalar (`|`, `>`) contents are skipped.
bool yaml_nesting_exceeds(std::string_view text, std::size_t limit);

}  // namespace rift::frontends
