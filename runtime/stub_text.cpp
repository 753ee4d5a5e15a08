#include "runtime/stub_text.h"

#include <string_view>

namespace rift {
namespace {

// Two levels of dump(2) indentation: the document, then the "stubs" array.
constexpr std::string_view kDepth = "    ";

}  // namespace

std::shared_ptr<const std::string> stub_text(const ir::Json& source) {
  if (!source.is_object() || source.empty() || source.contains("_links")) return nullptr;
  // Strings never hold a raw newline (JSON escapes it), so every '\n' starts an indented line.
  const std::string flat = source.dump(2);
  const std::string_view body(flat.data(), flat.size() - 2);  // without the closing "\n}"
  auto text = std::make_shared<std::string>();
  text->reserve(flat.size() + flat.size() / 4);
  for (const char c : body) {
    text->push_back(c);
    if (c == '\n') text->append(kDepth);
  }
  return text;
}

void append_stub(std::string& out, const std::string& text, const std::string& href) {
  out += text;
  out += ",\n      \"_links\": {\n        \"self\": {\n          \"href\": ";
  out += ir::Json(href).dump();
  out += "\n        }\n      }\n    }";
}

}  // namespace rift
