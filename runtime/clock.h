// Wall-clock text for journals and debug matches.
#pragma once

#include <string>

namespace rift {

// ISO-8601 UTC with milliseconds, as JavaScript's Date.toISOString: 2024-05-01T10:00:00.123Z
std::string iso_timestamp_now();

}  // namespace rift
