#include "runtime/smtp/gmime_support.h"

#include <gmime/gmime.h>

#include <cerrno>
#include <mutex>

namespace rift::smtp {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

}  // namespace

void ensure_gmime() {
  static std::once_flag once;
  std::call_once(once, [] { g_mime_init(); });
}

std::optional<std::string> iconv_to_utf8(std::string_view bytes, const std::string& charset) {
  ensure_gmime();
  iconv_t converter = g_mime_iconv_open("UTF-8", charset.c_str());
  if (converter == reinterpret_cast<iconv_t>(-1)) return std::nullopt;
  std::string out;
  std::string buffer(4096, '\0');
  char* in = const_cast<char*>(bytes.data());  // iconv's signature; the input is not written
  size_t in_left = bytes.size();
  while (in_left > 0) {
    char* next = buffer.data();
    size_t out_left = buffer.size();
    const size_t result = iconv(converter, &in, &in_left, &next, &out_left);
    out.append(buffer.data(), buffer.size() - out_left);
    if (result != static_cast<size_t>(-1)) break;
    if (errno == E2BIG) continue;
    out.append(kReplacement);
    if (errno == EINVAL) break;  // a sequence cut off by the end of the input
    ++in;                        // EILSEQ: skip the byte that cannot start a character
    --in_left;
  }
  // Flush a stateful encoding's pending output (ISO-2022-JP's shift back, say).
  char* next = buffer.data();
  size_t out_left = buffer.size();
  iconv(converter, nullptr, nullptr, &next, &out_left);
  out.append(buffer.data(), buffer.size() - out_left);
  g_mime_iconv_close(converter);
  return out;
}

}  // namespace rift::smtp
