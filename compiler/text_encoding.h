// Byte strings to valid UTF-8 the way Node does it, so that requests never carry text that JSON
// serialization would reject, and Rift's view of odd bytes matches Mountebank's.
#pragma once

#include <string>
#include <string_view>

namespace rift {

// Invalid sequences become U+FFFD, one per maximal subpart (WHATWG decoder, as Node's Buffer).
std::string to_valid_utf8(std::string_view bytes);

// Appends the UTF-8 encoding of one code point (up to U+10FFFF).
void append_utf8(std::string& out, char32_t code);

// Node decodes header bytes as Latin-1: each byte is one code point.
std::string latin1_to_utf8(std::string_view bytes);

// The same, written over `out`, whose capacity is reused (the per-request path allocates nothing
// once a connection's strings have grown to its requests' size).
void assign_valid_utf8(std::string& out, std::string_view bytes);
void assign_latin1_as_utf8(std::string& out, std::string_view bytes);

}  // namespace rift
