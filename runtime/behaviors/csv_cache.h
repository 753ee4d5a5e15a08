// Parsed lookup data sources, read again only when the file changes.
//
// Mountebank reads the CSV file on every request. Rift keeps the parsed table per
// (path, delimiter) and checks the file with one stat() per lookup: a changed size, mtime or
// inode re-reads it, so edits to the file are seen at once, as with Mountebank. The read happens
// on the worker that serves the request; data files are small and local, and it happens once per
// change, so it is not worth a trip to another thread.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "runtime/behaviors/csv.h"

namespace rift::behaviors {

class CsvCache {
 public:
  // The table in `path`, or null when the file cannot be read (Mountebank then replaces
  // nothing). Thread-safe.
  std::shared_ptr<const CsvTable> load(const std::string& path, const std::string& delimiter);

 private:
  struct Entry {
    std::shared_ptr<const CsvTable> table;
    long long size = -1;
    long long mtime_ns = -1;
    unsigned long long inode = 0;
  };
  std::mutex mutex_;
  std::map<std::pair<std::string, std::string>, Entry> entries_;
};

}  // namespace rift::behaviors
