#include "runtime/imposter/stub_text.h"

#include <string_view>

namespace rift {
namespace {

// Two levels of dump(2) indentation: the document, then the "stubs" array.
constexpr std::string_view kDepth = "    ";
// How the serializer closes the stub at that depth; append_stub closes it after `_links`.
constexpr std::string_view kClose = "\n    }";

}  // namespace

std::shared_ptr<const std::string> stub_text(const ir::Json& source) {
  if (!source.is_object() || source.empty() || source.contains("_links")) return nullptr;
  // dump(2) as it prints inside an imposter document: nlohmann's serializer starts at that depth
  // itself, so there is no flat copy to re-indent character by character (10,000-stub POSTs).
  auto text = std::make_shared<std::string>();
  nlohmann::detail::serializer<ir::Json> serializer(
      nlohmann::detail::output_adapter<char, std::string>(*text), ' ');
  serializer.dump(source, /*pretty_print=*/true, /*ensure_ascii=*/false, /*indent_step=*/2,
                  /*current_indent=*/static_cast<unsigned>(kDepth.size()));
  text->resize(text->size() - kClose.size());  // without the closing "\n    }"
  return text;
}

void append_stub(std::string& out, const std::string& text, const std::string& href) {
  out += text;
  out += ",\n      \"_links\": {\n        \"self\": {\n          \"href\": ";
  out += ir::Json(href).dump();
  out += "\n        }\n      }\n    }";
}

}  // namespace rift
