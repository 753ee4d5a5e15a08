// `--configfile` loading: Mountebank's JSON config documents and Rift's native YAML (same schema),
// reduced to the list of imposter documents to apply with PUT /imposters semantics.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "compiler/ir.h"

namespace rift::frontends {

struct ConfigError {
  std::string message;
  std::string file;
  int line = 0;  // 1-based; 0 when the error has no position
  int column = 0;
  // "file:line:column: message" (or "file: message" without a position).
  std::string to_string() const;
};

struct ConfigOptions {
  // Mountebank's --noParse: the text is plain JSON/YAML, `<%` is not a template tag.
  bool no_parse = false;
};

// Returns the list of imposter documents (as JSON) a config file declares: JSON
// `{"imposters":[...]}`, a single imposter object, or a bare array; or native YAML (same
// schema). `.yaml`/`.yml` files are YAML, `.json`/`.ejs` files JSON; others are sniffed. Unless
// `no_parse`, text containing `<%` is first rendered as an EJS template (see ejs.h; positions of
// JSON errors then refer to the rendered text). Errors carry line/column.
std::variant<std::vector<ir::Json>, ConfigError> load_config_file(const std::string& path);
std::variant<std::vector<ir::Json>, ConfigError> load_config_file(const std::string& path,
                                                                  const ConfigOptions& options);

std::variant<std::vector<ir::Json>, ConfigError> parse_config_text(std::string_view text,
                                                                   const std::string& file_name);

// A config file whole: its imposters and the reference Rift's sibling blocks beside
// `imposters` in the wrapper form (`routes`: the front door's table, docs/front-door.md;
// `intercept`: the intercept proxy's settings and rules, docs/intercept.md) and Rift's own
// `frontDoorTls` (the front door's certificates, docs/front-door.md#tls).
struct ConfigDocument {
  std::vector<ir::Json> imposters;
  std::optional<ir::Json> routes;
  std::optional<ir::Json> front_door_tls;
  std::optional<ir::Json> intercept;
};
std::variant<ConfigDocument, ConfigError> load_config_document(const std::string& path,
                                                               const ConfigOptions& options);
std::variant<ConfigDocument, ConfigError> parse_config_document(std::string_view text,
                                                                const std::string& file_name,
                                                                const ConfigOptions& options);
std::variant<std::vector<ir::Json>, ConfigError> parse_config_text(std::string_view text,
                                                                   const std::string& file_name,
                                                                   const ConfigOptions& options);

}  // namespace rift::frontends
