#include "frontends/json_text.h"

#include "compiler/json_stream.h"

namespace rift::frontends {

ir::Json parse_json_text(std::string_view text) {
  return json_stream::parse_nlohmann(text);
}

}  // namespace rift::frontends
