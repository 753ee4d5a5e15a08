// GMime set up once per process, and its iconv wrapper: the charset conversions mailparser does
// with iconv-lite are done with the system's iconv through GMime's name mapping.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rift::smtp {

// g_mime_init, once (it is not safe to call from two threads at a time).
void ensure_gmime();

// `bytes` in `charset` as UTF-8, each undecodable sequence a U+FFFD (as iconv-lite answers one);
// nullopt when iconv knows no such charset.
std::optional<std::string> iconv_to_utf8(std::string_view bytes, const std::string& charset);

}  // namespace rift::smtp
