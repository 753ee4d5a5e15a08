// Stops a runaway script: when a call outlives its deadline, the watchdog thread asks the engine
// to interrupt it (SpiderMonkey checks for interrupts at loop heads and calls, so even
// `while (true) {}` returns).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

namespace rift::script {

class Watchdog {
 public:
  // `expire` runs on the watchdog thread when an armed deadline passes; it must be thread-safe.
  explicit Watchdog(std::function<void()> expire);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  void arm(std::chrono::steady_clock::time_point deadline);
  void disarm();

 private:
  void watch();

  std::function<void()> expire_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::optional<std::chrono::steady_clock::time_point> deadline_;
  bool stopping_ = false;
  std::thread thread_;  // last: starts after the members it reads
};

// Arms for one call and disarms on every way out of the scope.
class WatchdogScope {
 public:
  WatchdogScope(Watchdog& watchdog, std::chrono::milliseconds limit) : watchdog_(watchdog) {
    watchdog_.arm(std::chrono::steady_clock::now() + limit);
  }
  ~WatchdogScope() { watchdog_.disarm(); }
  WatchdogScope(const WatchdogScope&) = delete;
  WatchdogScope& operator=(const WatchdogScope&) = delete;

 private:
  Watchdog& watchdog_;
};

}  // namespace rift::script
