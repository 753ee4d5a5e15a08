#include "runtime/admin/path_segment.h"

#include "compiler/ascii.h"
#include "compiler/text_encoding.h"

namespace rift::admin {

std::variant<std::string, MbError> decoded_segment(std::string_view raw, std::string_view what) {
  std::string decoded;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '%') {
      decoded += raw[i];
      continue;
    }
    const int high = i + 2 < raw.size() ? ascii::hex_value(raw[i + 1]) : -1;
    const int low = i + 2 < raw.size() ? ascii::hex_value(raw[i + 2]) : -1;
    if (high < 0 || low < 0) return bad_data("Failed to decode param '" + std::string(raw) + "'");
    decoded += static_cast<char>(high * 16 + low);
    i += 2;
  }
  if (to_valid_utf8(decoded) != decoded) {
    return bad_data("a " + std::string(what) + " must be UTF-8 once decoded: '" + std::string(raw) +
                    "'");
  }
  return decoded;
}

}  // namespace rift::admin
