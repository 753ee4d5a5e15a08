// Runs shellTransform commands off the event loops.
//
// A worker hands a command over and returns to its loop at once; one of a few runner threads
// (started on first use, at most `max_threads`) runs it to completion and calls `done` there.
// The reply then travels back to the connection's own thread (http::Respond posts it).
// Destruction kills every command still running (its whole process group), so shutdown never
// waits on a command that does not end, then joins the threads.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/behaviors/shell_process.h"

namespace rift::behaviors {

class ShellRunner {
 public:
  explicit ShellRunner(size_t max_threads = 8);
  ~ShellRunner();
  ShellRunner(const ShellRunner&) = delete;
  ShellRunner& operator=(const ShellRunner&) = delete;

  // Queues `command`; `done` runs on a runner thread (or at once, with an error, when the
  // runner is shutting down). Thread-safe.
  void run(ShellCommand command, std::function<void(ShellResult)> done);

  // Kills the running commands, answers the queued ones with an error, refuses new ones and
  // joins the threads. The server calls it while its event loops still run, so every pending
  // reply is delivered and no callback outlives them. Idempotent; the destructor calls it too.
  void shutdown();

  struct State;

 private:
  // Shared with the threads, so a thread that drops the last reference to the runner while
  // running a callback can still finish its loop safely.
  std::shared_ptr<State> state_;
  std::mutex threads_mutex_;
  std::vector<std::thread> threads_;
  const size_t max_threads_;
};

}  // namespace rift::behaviors
