#include "runtime/base/clock.h"

#include <chrono>
#include <cstdio>
#include <ctime>

namespace rift {

std::string iso_timestamp_now() {
  return iso_timestamp(std::chrono::system_clock::now());
}

std::string iso_timestamp(std::chrono::system_clock::time_point at) {
  const auto millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count();
  const std::time_t seconds = static_cast<std::time_t>(millis / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[64];
  std::snprintf(text, sizeof(text), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900,
                utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                static_cast<int>(millis % 1000));
  return text;
}

}  // namespace rift
