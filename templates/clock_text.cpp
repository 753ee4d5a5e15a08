#include "templates/clock_text.h"

#include <charconv>
#include <cstdio>
#include <ctime>

namespace rift::templates {
namespace {

using namespace std::chrono;

std::optional<std::tm> utc(Instant at) {
  const std::time_t time = at.seconds.time_since_epoch().count();
  std::tm out{};
  if (gmtime_r(&time, &out) == nullptr) return std::nullopt;
  if (out.tm_year + 1900 < 0 || out.tm_year + 1900 > 9999) return std::nullopt;
  return out;
}

std::string digits(int64_t value, int width) {
  std::string text = std::to_string(value);
  if (static_cast<int>(text.size()) < width) text.insert(0, width - text.size(), '0');
  return text;
}

std::string strftime_one(const std::tm& tm, std::string_view item) {
  char buffer[128];
  const std::string format(item);
  const size_t written = std::strftime(buffer, sizeof(buffer), format.c_str(), &tm);
  return std::string(buffer, written);
}

// The items chrono knows that glibc's strftime writes the same way in UTC and the C locale.
constexpr std::string_view kPlain = "YCymbBhdeaAwuUWGgVjDxFHkIlPpMSRTXrcstn%";

// The length of the `%` item at `at` (flags included), or 0 when it is not one chrono accepts.
size_t item_length(std::string_view format, size_t at) {
  std::string_view rest = format.substr(at + 1);
  size_t flag = 0;
  if (!rest.empty() && (rest[0] == '-' || rest[0] == '_' || rest[0] == '0')) flag = 1;
  rest.remove_prefix(flag);
  if (rest.empty()) return 0;
  for (std::string_view long_item :
       {".3f", ".6f", ".9f", ":::z", "::z", ":z", ".f", "3f", "6f", "9f"}) {
    if (rest.substr(0, long_item.size()) == long_item) {
      return flag == 0 ? 1 + long_item.size() : 0;
    }
  }
  if (kPlain.find(rest[0]) != std::string_view::npos) return 1 + flag + 1;
  if (flag == 0 &&
      (rest[0] == 'f' || rest[0] == 'z' || rest[0] == 'Z' || rest[0] == '+' || rest[0] == 'v')) {
    return 2;
  }
  return 0;
}

std::string fraction(int64_t nanos, int width) {
  return digits(nanos, 9).substr(0, static_cast<size_t>(width));
}

}  // namespace

Instant Instant::of(TimePoint at) {
  const auto whole = floor<std::chrono::seconds>(at);
  return {sys_seconds(whole.time_since_epoch()), duration_cast<nanoseconds>(at - whole).count()};
}

std::optional<std::string> rfc3339(Instant at) {
  const auto tm = utc(at);
  if (!tm) return std::nullopt;
  std::string out = strftime_one(*tm, "%Y-%m-%dT%H:%M:%S");
  const int64_t nanos = at.nanos;
  if (nanos != 0) {
    const int width = nanos % 1'000'000 == 0 ? 3 : nanos % 1'000 == 0 ? 6 : 9;
    out += "." + fraction(nanos, width);
  }
  return out + "+00:00";
}

std::optional<Instant> add_months(Instant at, int64_t months) {
  if (months > 12 * 10000 || months < -12 * 10000) return std::nullopt;
  const auto day = floor<days>(at.seconds);
  const year_month_day date{day};
  year_month_day moved = date + std::chrono::months(months);
  if (!moved.ok()) moved = year_month_day_last{moved.year(), month_day_last{moved.month()}};
  const Instant out{sys_days{moved} + (at.seconds - day), at.nanos};
  if (!utc(out)) return std::nullopt;
  return out;
}

std::optional<std::string> format_problem(std::string_view format) {
  for (size_t at = 0; at < format.size(); ++at) {
    if (format[at] != '%') continue;
    const size_t length = item_length(format, at);
    if (length == 0) return "invalid strftime format string '" + std::string(format) + "'";
    at += length - 1;
  }
  return std::nullopt;
}

std::optional<std::string> format_time(Instant at, std::string_view format) {
  const auto tm = utc(at);
  if (!tm) return std::nullopt;
  const int64_t nanos = at.nanos;
  std::string out;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      out.push_back(format[i]);
      continue;
    }
    const size_t length = item_length(format, i);
    const std::string_view item = format.substr(i, length);
    i += length - 1;
    if (item == "%f" || item == "%9f") {
      out += fraction(nanos, 9);
    } else if (item == "%3f" || item == "%6f") {
      out += fraction(nanos, item[1] - '0');
    } else if (item == "%.3f" || item == "%.6f" || item == "%.9f") {
      out += "." + fraction(nanos, item[2] - '0');
    } else if (item == "%.f") {
      if (nanos != 0) {
        out += "." + fraction(nanos, nanos % 1'000'000 == 0 ? 3 : nanos % 1'000 == 0 ? 6 : 9);
      }
    } else if (item == "%z") {
      out += "+0000";
    } else if (item == "%:z") {
      out += "+00:00";
    } else if (item == "%::z") {
      out += "+00:00:00";
    } else if (item == "%:::z") {
      out += "+00";
    } else if (item == "%Z") {
      out += "UTC";
    } else if (item == "%+") {
      out += strftime_one(*tm, "%Y-%m-%dT%H:%M:%S") + "." + fraction(nanos, 9) + "+00:00";
    } else if (item == "%s") {  // glibc's %s reads the tm as local time
      out += std::to_string(at.seconds.time_since_epoch().count());
    } else if (item == "%v") {
      out += strftime_one(*tm, "%e-%b-%Y");
    } else {
      out += strftime_one(*tm, item);
    }
  }
  return out;
}

std::optional<std::chrono::seconds> parse_offset(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (text.size() < 2) return std::nullopt;
  const char unit = text.back();
  text.remove_suffix(1);
  int64_t per = 0;
  switch (unit) {
    case 's':
      per = 1;
      break;
    case 'm':
      per = 60;
      break;
    case 'h':
      per = 3600;
      break;
    case 'd':
      per = 86400;
      break;
    default:
      return std::nullopt;
  }
  bool negative = false;
  if (text.front() == '+' || text.front() == '-') {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  int64_t amount = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), amount);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  // A second sign (`+-5h`) is not an offset; ten thousand years either way is as far as a date
  // can be written (and keeps the product below overflow).
  if (amount < 0 || amount > 315'576'000'000 / per) return std::nullopt;
  return std::chrono::seconds(negative ? -amount * per : amount * per);
}

}  // namespace rift::templates
