// Time as templates write it (docs/templates.md#dates): RFC 3339 the way the reference Rift's
// chrono prints it, strftime formats with chrono's extensions, and `now`'s offsets.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace rift::templates {

using TimePoint = std::chrono::system_clock::time_point;

// An instant as whole seconds and the nanoseconds past them: a system_clock time point holds
// nanoseconds in 64 bits, which reach only the years 1677 to 2262, and `{{DAYS+100000}}` is
// further than that.
struct Instant {
  std::chrono::sys_seconds seconds;
  int64_t nanos = 0;  // 0 to 999,999,999

  static Instant of(TimePoint at);
  Instant plus(std::chrono::seconds offset) const { return {seconds + offset, nanos}; }
};

// "2026-12-05T17:36:05.014623289+00:00": the fraction as short as it can be exactly (none, 3, 6
// or 9 digits), the offset always +00:00. Unset outside the years 0 to 9999.
std::optional<std::string> rfc3339(Instant at);

// `at` plus `months` calendar months, the day clamped to the month's last (Jan 31 + 1 = Feb 28).
std::optional<Instant> add_months(Instant at, int64_t months);

// Why `format` cannot be used (an unknown or incomplete `%` item), or unset.
std::optional<std::string> format_problem(std::string_view format);
// `at` in UTC by a format format_problem() accepts; unset outside the years 0 to 9999.
std::optional<std::string> format_time(Instant at, std::string_view format);

// `+2h`, `-30m`, `1d`, ` +30s ` (units s, m, h, d): the offset, or unset.
std::optional<std::chrono::seconds> parse_offset(std::string_view text);

}  // namespace rift::templates
