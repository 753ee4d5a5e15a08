#include "runtime/script/watchdog.h"

namespace rift::script {

Watchdog::Watchdog(std::function<void()> expire)
    : expire_(std::move(expire)), thread_([this] { watch(); }) {}

Watchdog::~Watchdog() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_one();
  thread_.join();
}

void Watchdog::arm(std::chrono::steady_clock::time_point deadline) {
  {
    std::lock_guard lock(mutex_);
    deadline_ = deadline;
  }
  changed_.notify_one();
}

void Watchdog::disarm() {
  std::lock_guard lock(mutex_);
  deadline_.reset();
}

void Watchdog::watch() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (!deadline_) {
      changed_.wait(lock);
      continue;
    }
    const auto deadline = *deadline_;
    if (changed_.wait_until(lock, deadline) == std::cv_status::timeout && deadline_ == deadline) {
      deadline_.reset();  // one interrupt per armed call
      expire_();
    }
  }
}

}  // namespace rift::script
