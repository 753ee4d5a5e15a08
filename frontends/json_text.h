// The admin API's JSON bodies as nlohmann's parser would read them, parsed with simdjson: a
// 10,000-stub imposter is megabytes of JSON, and nlohmann's own lexer was an eighth of its POST.
#pragma once

#include <string_view>

#include "compiler/ir.h"

namespace rift::frontends {

// json_stream::parse_nlohmann (compiler/json_stream.h, where the one simdjson-to-ir::Json
// conversion lives): the tree ir::Json::parse(text, nullptr, false) builds; discarded when the
// text is not JSON.
ir::Json parse_json_text(std::string_view text);

}  // namespace rift::frontends
