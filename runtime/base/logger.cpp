#include "runtime/base/logger.h"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "runtime/base/clock.h"

namespace rift {
namespace {

const char* level_name(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug:
      return "debug";
    case LogLevel::kInfo:
      return "info";
    case LogLevel::kWarn:
      return "warn";
    case LogLevel::kError:
      return "error";
  }
  return "info";
}

ir::Json single_error(const char* message) {
  return ir::Json{{"logs", ir::Json::array({ir::Json{{"level", "error"}, {"message", message}}})}};
}

}  // namespace

Logger::Logger(LogLevel level, std::string file, bool console)
    : level_(level), path_(std::move(file)), console_(console) {
  if (path_.empty()) return;
  std::error_code ignored;
  if (std::filesystem::exists(path_, ignored)) {
    std::filesystem::path rotated(path_);
    rotated.replace_extension();
    std::filesystem::rename(path_, rotated.string() + "1.log", ignored);
  }
  file_.open(path_, std::ios::out | std::ios::trunc);
}

std::optional<LogLevel> Logger::parse_level(const std::string& text) {
  for (LogLevel level : {LogLevel::kDebug, LogLevel::kInfo, LogLevel::kWarn, LogLevel::kError}) {
    if (text == level_name(level)) return level;
  }
  return std::nullopt;
}

void Logger::log(LogLevel level, const std::string& message) {
  if (!enabled(level)) return;
  const std::string timestamp = iso_timestamp_now();
  std::lock_guard lock(mutex_);
  if (console_) std::cout << level_name(level) << ": " << message << std::endl;
  if (file_.is_open()) {
    ir::Json line{{"level", level_name(level)}, {"message", message}, {"timestamp", timestamp}};
    file_ << line.dump() << '\n';
    file_.flush();
  }
}

ir::Json Logger::entries(std::optional<long> start, std::optional<long> end) const {
  if (path_.empty()) return single_error("No logfile");
  std::lock_guard lock(mutex_);
  std::ifstream in(path_);
  if (!in) return single_error("No logfile");
  ir::Json logs = ir::Json::array();
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    auto entry = ir::Json::parse(line, nullptr, false);
    if (entry.is_discarded()) return single_error("This page only works for JSON file logging");
    logs.push_back(std::move(entry));
  }
  const long size = static_cast<long>(logs.size());
  const long first = std::max(0L, start.value_or(0));
  const long last = std::min(size - 1, end.value_or(size - 1));
  ir::Json sliced = ir::Json::array();
  for (long i = first; i <= last; ++i) sliced.push_back(logs[static_cast<size_t>(i)]);
  return ir::Json{{"logs", sliced}};
}

}  // namespace rift
