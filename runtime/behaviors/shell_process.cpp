#include "runtime/behaviors/shell_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

extern char** environ;

namespace rift::behaviors {
namespace {

// Owns a file descriptor.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    reset();
    fd_ = std::exchange(other.fd_, -1);
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

struct Pipe {
  Fd read;
  Fd write;
};

std::optional<Pipe> make_pipe() {
  std::array<int, 2> fds{};
  if (::pipe2(fds.data(), O_CLOEXEC) != 0) return std::nullopt;
  return Pipe{Fd(fds[0]), Fd(fds[1])};
}

// environ, minus the variables the command overrides, plus them.
std::vector<std::string> environment(const ShellCommand& command) {
  std::vector<std::string> out;
  for (char** entry = environ; entry && *entry; ++entry) {
    const std::string_view text(*entry);
    bool overridden = false;
    for (const auto& [name, value] : command.env) {
      overridden = overridden || (text.starts_with(name) && text.size() > name.size() &&
                                  text[name.size()] == '=');
    }
    if (!overridden) out.emplace_back(text);
  }
  for (const auto& [name, value] : command.env) out.push_back(name + "=" + value);
  return out;
}

class SpawnActions {
 public:
  SpawnActions() { posix_spawn_file_actions_init(&actions_); }
  ~SpawnActions() { posix_spawn_file_actions_destroy(&actions_); }
  SpawnActions(const SpawnActions&) = delete;
  SpawnActions& operator=(const SpawnActions&) = delete;
  posix_spawn_file_actions_t* get() { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_{};
};

class SpawnAttributes {
 public:
  SpawnAttributes() { posix_spawnattr_init(&attributes_); }
  ~SpawnAttributes() { posix_spawnattr_destroy(&attributes_); }
  SpawnAttributes(const SpawnAttributes&) = delete;
  SpawnAttributes& operator=(const SpawnAttributes&) = delete;
  posix_spawnattr_t* get() { return &attributes_; }

 private:
  posix_spawnattr_t attributes_{};
};

}  // namespace

ShellResult run_shell(const ShellCommand& command, const ChildWatch& watch, size_t max_output) {
  ShellResult result;
  auto out = make_pipe();
  auto err = make_pipe();
  if (!out || !err) {
    result.error = std::string("cannot create a pipe: ") + std::strerror(errno);
    return result;
  }

  SpawnActions actions;
  posix_spawn_file_actions_addopen(actions.get(), 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(actions.get(), out->write.get(), 1);
  posix_spawn_file_actions_adddup2(actions.get(), err->write.get(), 2);
  posix_spawn_file_actions_addclosefrom_np(actions.get(), 3);
  SpawnAttributes attributes;
  // Its own process group, so shutdown can kill whatever the command started.
  posix_spawnattr_setflags(attributes.get(),
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(attributes.get(), 0);
  // The server blocks SIGINT/SIGTERM to take them synchronously and ignores SIGPIPE; the
  // command gets the ordinary defaults.
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(attributes.get(), &none);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setsigdefault(attributes.get(), &defaults);

  std::vector<std::string> env = environment(command);
  std::vector<char*> envp;
  for (auto& entry : env) envp.push_back(entry.data());
  envp.push_back(nullptr);
  std::string shell = "/bin/sh", flag = "-c", line = command.line;
  std::array<char*, 4> argv{shell.data(), flag.data(), line.data(), nullptr};

  pid_t pid = 0;
  const int spawned =
      ::posix_spawn(&pid, shell.c_str(), actions.get(), attributes.get(), argv.data(), envp.data());
  if (spawned != 0) {
    result.error = std::string("cannot run /bin/sh: ") + std::strerror(spawned);
    return result;
  }
  result.spawned = true;
  watch(pid, true);
  out->write.reset();
  err->write.reset();

  std::array<pollfd, 2> fds{pollfd{out->read.get(), POLLIN, 0}, pollfd{err->read.get(), POLLIN, 0}};
  std::array<std::string*, 2> sinks{&result.out, &result.err};
  std::array<char, 65536> buffer{};
  int open_streams = 2;
  while (open_streams > 0) {
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t got = ::read(fds[i].fd, buffer.data(), buffer.size());
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        fds[i].fd = -1;  // poll ignores negative descriptors
        --open_streams;
        continue;
      }
      sinks[i]->append(buffer.data(), static_cast<size_t>(got));
      if (sinks[i]->size() > max_output && result.error.empty()) {
        result.error =
            i == 0 ? "stdout maxBuffer length exceeded" : "stderr maxBuffer length exceeded";
        ::kill(-pid, SIGKILL);
      }
    }
  }

  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  watch(pid, false);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (WIFSIGNALED(status) && result.error.empty()) {
    result.error = std::string("killed by signal ") + ::strsignal(WTERMSIG(status));
  }
  return result;
}

}  // namespace rift::behaviors
