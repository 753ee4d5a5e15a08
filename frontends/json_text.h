// The admin API's JSON bodies as nlohmann's parser would read them, parsed with simdjson: a
// 10,000-stub imposter is megabytes of JSON, and nlohmann's own lexer was an eighth of its POST.
#pragma once

#include <string_view>

#include "compiler/ir.h"

namespace rift::frontends {

// The same tree ir::Json::parse(text, nullptr, false) builds: non-negative integers unsigned,
// negative ones signed, everything else a double; a repeated key keeps its first place and its
// last value ("-0" alone comes out unsigned, not signed: same value and text). Discarded when the
// text is not JSON. Texts simdjson refuses
// (integers beyond 64 bits, a byte-order mark, deep nesting) are left to nlohmann to decide.
ir::Json parse_json_text(std::string_view text);

}  // namespace rift::frontends
