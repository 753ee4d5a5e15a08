// Mountebank-style logging: console lines plus a JSON-lines file that GET /logs serves.
#pragma once

#include <fstream>
#include <mutex>
#include <optional>
#include <string>

#include "compiler/ir.h"

namespace rift {

enum class LogLevel { kDebug = 0, kInfo = 1, kWarn = 2, kError = 3 };

class Logger {
 public:
  // `file` empty: console only. An existing file is kept as <name>1.log, as Mountebank does.
  // `console` false: nothing goes to stdout (an embedding host owns it).
  Logger(LogLevel level, std::string file, bool console = true);

  void log(LogLevel level, const std::string& message);
  void debug(const std::string& message) { log(LogLevel::kDebug, message); }
  void info(const std::string& message) { log(LogLevel::kInfo, message); }
  void warn(const std::string& message) { log(LogLevel::kWarn, message); }
  void error(const std::string& message) { log(LogLevel::kError, message); }
  bool enabled(LogLevel level) const { return level >= level_; }

  // GET /logs?startIndex&endIndex (inclusive).
  ir::Json entries(std::optional<long> start, std::optional<long> end) const;

  static std::optional<LogLevel> parse_level(const std::string& text);

 private:
  const LogLevel level_;
  const std::string path_;
  const bool console_;
  mutable std::mutex mutex_;
  std::ofstream file_;
};

}  // namespace rift
