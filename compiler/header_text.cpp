#include "compiler/header_text.h"

#include "compiler/js_value.h"

using namespace std::string_view_literals;

namespace rift::header_text {

bool writable(std::string_view text) {
  return text.find_first_of("\r\n\0"sv) == std::string_view::npos;
}

std::optional<std::string> problem(const ir::Json& headers) {
  if (!headers.is_object()) return std::nullopt;
  for (const auto& [name, value] : headers.items()) {
    bool ok = writable(name);
    if (ok && value.is_array()) {
      for (const auto& element : value) ok = ok && writable(js::to_string(element));
    } else if (ok) {
      ok = writable(js::to_string(value));
    }
    if (!ok)
      return "invalid character in header " + js::stringify(ir::Json(name)) + " (CR, LF or NUL)";
  }
  return std::nullopt;
}

}  // namespace rift::header_text
