// HTML's named character references, both ways: decoding for html-to-text's parser (html_text.cpp)
// and the names he.encode writes for text mailparser turns into HTML.
#pragma once

#include <optional>
#include <string_view>

namespace rift::smtp {

// "amp" -> "&", "eacute" -> "é" (UTF-8); nullopt for an unknown name.
std::optional<std::string_view> named_reference(std::string_view name);
// Whether the name (one of HTML's Latin-1 set) also decodes without its ';'.
bool legacy_reference(std::string_view name);
// What &#128; ... &#159; (and &#0;) decode to instead of their code point.
std::optional<std::string_view> numeric_override(unsigned code);
// The name he.encode gives these characters (one character, or a pair), if any.
std::optional<std::string_view> reference_name(std::string_view characters);

}  // namespace rift::smtp
