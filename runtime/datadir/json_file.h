// Reads one JSON document from a file, for the --datadir loader.
#pragma once

#include <filesystem>
#include <string>
#include <variant>

#include "compiler/ir.h"

namespace rift {

// The parsed document, or a message naming the file: unreadable, or not valid JSON (with the
// parser's own explanation, which says where).
std::variant<ir::Json, std::string> read_json_file(const std::filesystem::path& path);

}  // namespace rift
