#include "runtime/behaviors/shell_runner.h"

#include <signal.h>

#include <condition_variable>
#include <set>

namespace rift::behaviors {

struct ShellRunner::State {
  struct Job {
    ShellCommand command;
    std::function<void(ShellResult)> done;
  };

  std::mutex mutex;
  std::condition_variable wake;
  std::deque<Job> jobs;
  std::set<pid_t> children;  // running process groups
  size_t idle = 0;
  bool stopping = false;

  void loop() {
    std::unique_lock lock(mutex);
    while (true) {
      ++idle;
      wake.wait(lock, [&] { return stopping || !jobs.empty(); });
      --idle;
      if (jobs.empty()) return;  // stopping, and nothing left to answer
      Job job = std::move(jobs.front());
      jobs.pop_front();
      lock.unlock();
      ShellResult result;
      if (is_stopping()) {
        result.error = "the server is shutting down";
      } else {
        result = run_shell(job.command, [this](pid_t pid, bool started) { track(pid, started); });
      }
      job.done(std::move(result));
      job = Job{};  // release what the callback held before taking the lock again
      lock.lock();
    }
  }

  bool is_stopping() {
    std::lock_guard lock(mutex);
    return stopping;
  }

  void track(pid_t pid, bool started) {
    std::lock_guard lock(mutex);
    if (!started) {
      children.erase(pid);
    } else if (stopping) {
      ::kill(-pid, SIGKILL);
    } else {
      children.insert(pid);
    }
  }
};

ShellRunner::ShellRunner(size_t max_threads)
    : state_(std::make_shared<State>()), max_threads_(max_threads == 0 ? 1 : max_threads) {}

ShellRunner::~ShellRunner() {
  shutdown();
}

void ShellRunner::shutdown() {
  {
    std::lock_guard lock(state_->mutex);
    state_->stopping = true;
    for (pid_t group : state_->children) ::kill(-group, SIGKILL);
  }
  state_->wake.notify_all();
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(threads_mutex_);
    threads.swap(threads_);
  }
  for (auto& thread : threads) {
    // A callback on a runner thread may hold the last reference to the runner: that thread
    // finishes on its own (it only touches the shared state).
    if (thread.get_id() == std::this_thread::get_id()) {
      thread.detach();
    } else {
      thread.join();
    }
  }
  // Jobs queued as the runner stopped, with no thread left to take them.
  std::deque<State::Job> left;
  {
    std::lock_guard lock(state_->mutex);
    left.swap(state_->jobs);
  }
  for (auto& job : left) {
    ShellResult result;
    result.error = "the server is shutting down";
    job.done(std::move(result));
  }
}

void ShellRunner::run(ShellCommand command, std::function<void(ShellResult)> done) {
  bool start_thread = false;
  bool refused = false;
  {
    std::lock_guard lock(state_->mutex);
    refused = state_->stopping;
    if (!refused) {
      state_->jobs.push_back(State::Job{std::move(command), std::move(done)});
      start_thread = state_->idle < state_->jobs.size();
    }
  }
  if (refused) {
    ShellResult result;
    result.error = "the server is shutting down";
    done(std::move(result));
    return;
  }
  if (start_thread) {
    std::lock_guard lock(threads_mutex_);
    if (threads_.size() < max_threads_ && !state_->is_stopping()) {
      threads_.emplace_back([state = state_] { state->loop(); });
    }
  }
  state_->wake.notify_one();
}

}  // namespace rift::behaviors
