// Request body decoding for Content-Encoding gzip and br.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rift::http {

// nullopt on corrupt or truncated input, or output beyond kMaxDecompressedBytes (a bomb guard).
std::optional<std::string> gunzip(std::string_view compressed);
// nullopt as above, and always when Rift was built without libbrotli.
std::optional<std::string> brotli_decode(std::string_view compressed);

inline constexpr size_t kMaxDecompressedBytes = 256 * 1024 * 1024;

}  // namespace rift::http
