// Query strings and urlencoded forms, as Node's querystring.parse reads them.
#pragma once

#include <string>
#include <string_view>

#include "compiler/request.h"

namespace rift::http {

// Split on '&' (empty pieces skipped), key and value split on the first '=' (no '=' gives ""),
// '+' as space, valid %xx decoded (invalid ones kept), the result made valid UTF-8.
rift::KeyValues parse_query_string(std::string_view text);
// The same, refilling `out` in place (its strings keep their capacity).
void parse_query_string_into(std::string_view text, rift::KeyValues& out);

std::string decode_query_component(std::string_view text);
void assign_decoded_query_component(std::string& out, std::string_view text);

}  // namespace rift::http
