// Reason phrases as Node.js's http.STATUS_CODES spells them, so status lines match Mountebank's.
#pragma once

#include <string_view>

namespace rift {

std::string_view status_text(int status);

}  // namespace rift
