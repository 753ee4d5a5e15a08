// Punycode (RFC 3492) domains to Unicode, as Node's punycode.toUnicode does it: smtp-server
// applies it to every envelope address's domain and mailparser to header addresses under an
// "@xn--" domain, so both sides of an smtp imposter's journal show "bücher.example", not
// "xn--bcher-kva.example".
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rift::smtp {

// Each dot-separated label that starts with "xn--" (lower case, as punycode.js tests it) decoded;
// other labels as they are; text before an '@' kept. nullopt where punycode.js throws (a label
// that is not valid punycode), which both callers answer by keeping the input unchanged.
std::optional<std::string> punycode_to_unicode(std::string_view domain);

}  // namespace rift::smtp
