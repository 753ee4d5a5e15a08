// The words of a `{{ }}` function token (docs/templates.md#functions): `|` separates the head
// from each filter, whitespace separates words, and a single quote groups (it is removed wherever
// it stands, as in the reference Rift; there are no escapes and double quotes are ordinary).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rift::templates {

// "a 'b|c' | d" -> {"a 'b|c' ", " d"}: splits on `|` outside single quotes.
std::vector<std::string_view> split_stages(std::string_view text);
// " x-'te'st  'a b' '' " -> {"x-test", "a b", ""}.
std::vector<std::string> split_words(std::string_view stage);

}  // namespace rift::templates
