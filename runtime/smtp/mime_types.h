// The content type libmime gives a file name by its extension: mailsplit types a part without a
// Content-Type from its file name, and mailparser retypes an application/octet-stream attachment
// that has one ("report.pdf" becomes application/pdf).
#pragma once

#include <string_view>

namespace rift::smtp {

// libmime's detectMimeType: the extension after the last dot (or the whole name, lower-cased,
// whitespace and leading dots dropped); application/octet-stream when it is not in the table.
std::string_view detect_mime_type(std::string_view name);

}  // namespace rift::smtp
