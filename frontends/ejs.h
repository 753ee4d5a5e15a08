// The subset of EJS 2 that Mountebank config files use
// (docs/mountebank-semantics.md §7): `<% include file %>`, `<%- stringify('path') %>` (alias
// `inject`) and `process.env.NAME`. Rift has no JavaScript engine, so any other template code is
// reported instead of being evaluated.
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "frontends/config_file.h"

namespace rift::frontends {

// Renders `text`, the contents of `file`. Includes are relative to the including file;
// stringify paths are relative to the directory of `root_file` (the --configfile).
std::variant<std::string, ConfigError> render_ejs(std::string_view text, const std::string& file,
                                                  const std::string& root_file);

}  // namespace rift::frontends
