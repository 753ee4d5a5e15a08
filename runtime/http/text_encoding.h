// Byte strings to valid UTF-8 the way Node does it, so that requests never carry text that JSON
// serialization would reject, and Rift's view of odd bytes matches Mountebank's.
#pragma once

#include <string>
#include <string_view>

namespace rift::http {

// Invalid sequences become U+FFFD, one per maximal subpart (WHATWG decoder, as Node's Buffer).
std::string to_valid_utf8(std::string_view bytes);

// Node decodes header bytes as Latin-1: each byte is one code point.
std::string latin1_to_utf8(std::string_view bytes);

}  // namespace rift::http
