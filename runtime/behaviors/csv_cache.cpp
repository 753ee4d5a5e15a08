#include "runtime/behaviors/csv_cache.h"

#include <sys/stat.h>

#include <fstream>
#include <sstream>

namespace rift::behaviors {

std::shared_ptr<const CsvTable> CsvCache::load(const std::string& path,
                                               const std::string& delimiter) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return nullptr;
  const long long size = info.st_size;
  const long long mtime_ns =
      static_cast<long long>(info.st_mtim.tv_sec) * 1'000'000'000LL + info.st_mtim.tv_nsec;
  const auto key = std::make_pair(path, delimiter);
  {
    std::lock_guard lock(mutex_);
    auto found = entries_.find(key);
    if (found != entries_.end() && found->second.size == size &&
        found->second.mtime_ns == mtime_ns && found->second.inode == info.st_ino) {
      return found->second.table;
    }
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) return nullptr;
  std::ostringstream text;
  text << file.rdbuf();
  auto table = std::make_shared<const CsvTable>(parse_csv(text.str(), delimiter));
  std::lock_guard lock(mutex_);
  entries_[key] = Entry{table, size, mtime_ns, static_cast<unsigned long long>(info.st_ino)};
  return table;
}

}  // namespace rift::behaviors
