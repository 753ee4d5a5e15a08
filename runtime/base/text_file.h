// Reading a whole file the user named (a certificate, a key), as bytes.
#pragma once

#include <optional>
#include <string>

namespace rift {

// The file's contents, or nullopt when it cannot be opened or read.
std::optional<std::string> read_text_file(const std::string& path);

}  // namespace rift
