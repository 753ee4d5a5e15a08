// Base64 for binary-mode bodies (`_mode: "binary"`) and binary-mode tcp data.
#pragma once

#include <string>
#include <string_view>

namespace rift {

// Mountebank (Node's Buffer.from(s, "base64")) ignores every character outside the alphabet,
// newlines included, and tolerates missing padding.
std::string base64_decode_lenient(std::string_view text);
std::string base64_encode(std::string_view bytes);

}  // namespace rift
