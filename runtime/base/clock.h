// Wall-clock text for journals and debug matches.
#pragma once

#include <chrono>
#include <string>

namespace rift {

// ISO-8601 UTC with milliseconds, as JavaScript's Date.toISOString: 2024-05-01T10:00:00.123Z
std::string iso_timestamp_now();
std::string iso_timestamp(std::chrono::system_clock::time_point at);

}  // namespace rift
