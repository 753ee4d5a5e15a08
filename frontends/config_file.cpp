#include "frontends/config_file.h"

#include <fstream>
#include <sstream>

#include "compiler/nesting.h"
#include "frontends/ejs.h"
#include "frontends/yaml_to_json.h"

namespace rift::frontends {
namespace {

enum class Syntax { kJson, kYaml };

bool ends_with(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Syntax syntax_for(std::string_view text, const std::string& file_name) {
  if (ends_with(file_name, ".yaml") || ends_with(file_name, ".yml")) return Syntax::kYaml;
  if (ends_with(file_name, ".json") || ends_with(file_name, ".ejs")) return Syntax::kJson;
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && (text[first] == '{' || text[first] == '[')) {
    return Syntax::kJson;
  }
  return Syntax::kYaml;
}

// 1-based line and column of the byte at `offset`.
std::pair<int, int> position_of(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  int line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return {line, static_cast<int>(offset - line_start) + 1};
}

ConfigError error_at(std::string message, const std::string& file, std::string_view text,
                     std::size_t offset) {
  const auto [line, column] = position_of(text, offset);
  return ConfigError{std::move(message), file, line, column};
}

std::variant<ir::Json, ConfigError> parse_json(std::string_view text, const std::string& file) {
  if (nesting::json_exceeds(text)) return ConfigError{nesting::limit_message(), file, 0, 0};
  // nlohmann's lexer ends the text at a NUL byte and would accept whatever follows it.
  if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos) {
    return error_at("invalid JSON: a NUL byte", file, text, nul);
  }
  try {
    return ir::Json::parse(text.begin(), text.end());
  } catch (const ir::Json::parse_error& error) {
    // nlohmann's text repeats the position; keep only the description after it.
    std::string message = error.what();
    if (const std::size_t colon = message.find(": "); colon != std::string::npos) {
      message = message.substr(colon + 2);
    }
    const std::size_t offset = error.byte == 0 ? 0 : error.byte - 1;
    return error_at("invalid JSON: " + message, file, text, offset);
  } catch (const ir::Json::out_of_range& error) {
    // A number beyond a double ("1e400"): nlohmann throws this instead of a parse_error, with
    // the number quoted but no position (found by tests/fuzz/fuzz_ejs; it escaped as a crash).
    std::string message = error.what();
    if (const std::size_t bracket = message.find("] "); bracket != std::string::npos) {
      message = message.substr(bracket + 2);
    }
    const std::size_t quote = message.find('\'');
    const std::string number =
        quote == std::string::npos ? "" : message.substr(quote + 1, message.size() - quote - 2);
    const std::size_t offset = number.empty() ? 0 : text.find(number);
    return error_at("invalid JSON: " + message, file, text,
                    offset == std::string_view::npos ? 0 : offset);
  }
}

// Where a JSON document's top-level "imposters" key sits, to point at it in errors (YAML
// documents lose positions once converted, so they fall back to the same text search).
std::size_t imposters_key_offset(std::string_view text) {
  const std::size_t quoted = text.find("\"imposters\"");
  if (quoted != std::string_view::npos) return quoted;
  const std::size_t bare = text.find("imposters");
  return bare == std::string_view::npos ? 0 : bare;
}

// Mountebank uses `json.imposters || [json]`; Rift also accepts a bare list of imposters.
std::variant<std::vector<ir::Json>, ConfigError> imposters_of(const ir::Json& document,
                                                              std::string_view text,
                                                              const std::string& file,
                                                              ConfigDocument& siblings) {
  if (document.is_array()) return std::vector<ir::Json>(document.begin(), document.end());
  if (!document.is_object()) {
    return error_at(
        "a config file must hold {\"imposters\": [...]}, one imposter object or a list of "
        "imposters",
        file, text, text.find_first_not_of(" \t\r\n"));
  }
  auto imposters = document.find("imposters");
  if (imposters == document.end() || imposters->is_null() || *imposters == false) {
    // The sibling blocks belong beside `imposters`; in one imposter they would be lost.
    for (const char* sibling : {"routes", "intercept", "frontDoorTls"}) {
      if (document.contains(sibling)) {
        return error_at(std::string("'") + sibling +
                            "' belongs beside 'imposters' in a config file ({\"imposters\": [...], "
                            "\"" +
                            sibling + "\": ...}), not in an imposter",
                        file, text, text.find(sibling));
      }
    }
    return std::vector<ir::Json>{document};
  }
  if (auto given = document.find("routes"); given != document.end() && !given->is_null()) {
    siblings.routes = *given;
  }
  if (auto given = document.find("intercept"); given != document.end() && !given->is_null()) {
    siblings.intercept = *given;
  }
  if (auto given = document.find("frontDoorTls"); given != document.end() && !given->is_null()) {
    siblings.front_door_tls = *given;
  }
  if (!imposters->is_array()) {
    return error_at("'imposters' must be an array", file, text, imposters_key_offset(text));
  }
  std::vector<ir::Json> result;
  for (std::size_t i = 0; i < imposters->size(); ++i) {
    if (!(*imposters)[i].is_object()) {
      return error_at("'imposters[" + std::to_string(i) + "]' must be an object", file, text,
                      imposters_key_offset(text));
    }
    result.push_back((*imposters)[i]);
  }
  return result;
}

}  // namespace

std::string ConfigError::to_string() const {
  if (line == 0) return file + ": " + message;
  return file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message;
}

std::variant<std::vector<ir::Json>, ConfigError> parse_config_text(std::string_view text,
                                                                   const std::string& file_name,
                                                                   const ConfigOptions& options) {
  auto document = parse_config_document(text, file_name, options);
  if (auto* error = std::get_if<ConfigError>(&document)) return *error;
  return std::get<ConfigDocument>(std::move(document)).imposters;
}

std::variant<ConfigDocument, ConfigError> parse_config_document(std::string_view text,
                                                                const std::string& file_name,
                                                                const ConfigOptions& options) {
  ConfigDocument out;
  std::string rendered;
  if (!options.no_parse && text.find("<%") != std::string_view::npos) {
    auto result = render_ejs(text, file_name, file_name);
    if (auto* error = std::get_if<ConfigError>(&result)) return *error;
    rendered = std::get<std::string>(std::move(result));
    text = rendered;
  }
  if (syntax_for(text, file_name) == Syntax::kJson) {
    auto document = parse_json(text, file_name);
    if (auto* error = std::get_if<ConfigError>(&document)) return *error;
    auto imposters = imposters_of(std::get<ir::Json>(document), text, file_name, out);
    if (auto* error = std::get_if<ConfigError>(&imposters)) return *error;
    out.imposters = std::get<std::vector<ir::Json>>(std::move(imposters));
    return out;
  }
  auto documents = yaml_documents_to_json(text);
  if (auto* error = std::get_if<YamlError>(&documents)) {
    return ConfigError{"invalid YAML: " + error->message, file_name, error->line, error->column};
  }
  for (const auto& document : std::get<std::vector<ir::Json>>(documents)) {
    auto list = imposters_of(document, text, file_name, out);
    if (auto* error = std::get_if<ConfigError>(&list)) return *error;
    for (auto& imposter : std::get<std::vector<ir::Json>>(list)) {
      out.imposters.push_back(std::move(imposter));
    }
  }
  return out;
}

std::variant<std::vector<ir::Json>, ConfigError> parse_config_text(std::string_view text,
                                                                   const std::string& file_name) {
  return parse_config_text(text, file_name, ConfigOptions{});
}

std::variant<std::vector<ir::Json>, ConfigError> load_config_file(const std::string& path,
                                                                  const ConfigOptions& options) {
  auto document = load_config_document(path, options);
  if (auto* error = std::get_if<ConfigError>(&document)) return *error;
  return std::get<ConfigDocument>(std::move(document)).imposters;
}

std::variant<ConfigDocument, ConfigError> load_config_document(const std::string& path,
                                                               const ConfigOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return ConfigError{"cannot read the config file", path};
  std::ostringstream contents;
  contents << in.rdbuf();
  return parse_config_document(contents.str(), path, options);
}

std::variant<std::vector<ir::Json>, ConfigError> load_config_file(const std::string& path) {
  return load_config_file(path, ConfigOptions{});
}

}  // namespace rift::frontends
