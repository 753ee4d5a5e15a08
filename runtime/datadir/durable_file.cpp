#include "runtime/datadir/durable_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace rift::durable {
namespace fs = std::filesystem;
namespace {

// Owns one file descriptor.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  // close() can report a failed write-back; the caller must hear of it.
  int close() {
    const int result = ::close(fd_);
    fd_ = -1;
    return result;
  }

 private:
  int fd_;
};

std::string failure(const char* call, const fs::path& path, int error) {
  return std::string(call) + " " + path.string() + ": " + std::strerror(error);
}

}  // namespace

fs::path temporary_for(const fs::path& target) {
  fs::path temporary = target;
  temporary += ".tmp";
  return temporary;
}

bool is_temporary(const fs::path& path) {
  return path.extension() == ".tmp";
}

std::optional<std::string> sync_folder(const fs::path& folder) {
  Descriptor fd(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0) return failure("open", folder, errno);
  if (::fsync(fd.get()) != 0) return failure("fsync", folder, errno);
  return std::nullopt;
}

std::optional<std::string> write_atomically(const fs::path& target, std::string_view bytes) {
  const fs::path temporary = temporary_for(target);
  {
    Descriptor fd(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (fd.get() < 0) return failure("open", temporary, errno);
    while (!bytes.empty()) {
      const ssize_t written = ::write(fd.get(), bytes.data(), bytes.size());
      if (written < 0) {
        if (errno == EINTR) continue;
        return failure("write", temporary, errno);
      }
      bytes.remove_prefix(static_cast<size_t>(written));
    }
    if (::fsync(fd.get()) != 0) return failure("fsync", temporary, errno);
    if (fd.close() != 0) return failure("close", temporary, errno);
  }
  if (::rename(temporary.c_str(), target.c_str()) != 0) return failure("rename", temporary, errno);
  return sync_folder(target.parent_path());
}

std::optional<std::string> make_folder(const fs::path& folder) {
  if (folder.empty()) return std::nullopt;
  std::error_code error;
  if (fs::is_directory(folder, error)) return std::nullopt;
  const fs::path parent = folder.parent_path();
  if (!parent.empty() && parent != folder) {
    if (auto failed = make_folder(parent)) return failed;
  }
  if (::mkdir(folder.c_str(), 0755) != 0 && errno != EEXIST) return failure("mkdir", folder, errno);
  return sync_folder(parent.empty() ? fs::path(".") : parent);
}

std::optional<std::string> remove(const fs::path& path) {
  std::error_code error;
  if (!fs::exists(fs::symlink_status(path, error))) return std::nullopt;
  fs::remove_all(path, error);
  if (error) return "remove " + path.string() + ": " + error.message();
  const fs::path parent = path.parent_path();
  return sync_folder(parent.empty() ? fs::path(".") : parent);
}

}  // namespace rift::durable
