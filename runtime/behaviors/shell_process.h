// Runs one shell command to completion, as Node's child_process.exec does for Mountebank's
// shellTransform: `/bin/sh -c LINE`, the server's environment plus a few variables, stdout and
// stderr collected until both close and the process has exited.
//
// Blocking: call it from a ShellRunner thread, never from a worker's event loop.
#pragma once

#include <sys/types.h>

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rift::behaviors {

struct ShellCommand {
  std::string line;                                      // given to /bin/sh -c
  std::vector<std::pair<std::string, std::string>> env;  // added to (or replacing) environ
};

struct ShellResult {
  bool spawned = false;  // false: the shell could not be started (see `error`)
  int exit_code = -1;    // the exit status, or -1 when killed by a signal
  std::string out;
  std::string err;
  std::string error;  // why it failed to run or was stopped, when it did
};

// Called with the child's pid right after it starts (its process group id too), and with the
// same pid once it has been reaped; lets the runner kill what is still running at shutdown.
using ChildWatch = std::function<void(pid_t pid, bool started)>;

// Runs `command`. stdin is /dev/null; the child gets no descriptor of the server's (no
// listening socket outlives an imposter in a lingering child). Output beyond `max_output` bytes
// per stream kills the child's process group and fails the run.
ShellResult run_shell(const ShellCommand& command, const ChildWatch& watch,
                      size_t max_output = 64u << 20);

}  // namespace rift::behaviors
