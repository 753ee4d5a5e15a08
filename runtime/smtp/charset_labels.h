// libmime's table of charset labels (the WHATWG Encoding labels): "latin1" and "us-ascii" decode
// as windows-1252, "gb2312" as GBK, and so on.
#pragma once

#include <optional>
#include <string_view>

namespace rift::smtp {

// The encoding a lower-cased, trimmed label names, or nullopt when the table has no such label.
std::optional<std::string_view> charset_label(std::string_view label);

}  // namespace rift::smtp
