// The --datadir folder: one `<datadir>/<port>/imposter.json` per imposter, Mountebank's layout.
//
// Each file is the imposter as a creation request with its stubs inline; it is replaced
// atomically (runtime/datadir/durable_file.h), so a file on disk is always one that was completely
// written. A datadir written by Mountebank 2.9.1 (stubs in their own folders) loads too.
// Rift's choices and how they differ from Mountebank's: docs/datadir.md.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "compiler/ir.h"

namespace rift {

struct StoredImposter {
  int port = 0;
  ir::Json document;           // a creation request: parse_imposter() accepts it as is
  std::filesystem::path file;  // where it was read from, for messages
};

class DatadirStore {
 public:
  using Warn = std::function<void(const std::string&)>;

  explicit DatadirStore(std::filesystem::path root);

  // Creates the folder if it is missing, deletes temporary files left by a write that was cut
  // short (they were never acknowledged), and reads every imposter, in ascending port order.
  // Folders without an imposter.json are skipped with a warning, as Mountebank does. Fails,
  // naming the file, on anything it cannot read exactly: refusing to start loses nothing,
  // skipping a corrupt imposter and overwriting it later would.
  std::variant<std::vector<StoredImposter>, std::string> load(const Warn& warn);

  // Durable when it returns nothing: the imposter's file holds `document`.
  std::optional<std::string> save(int port, const ir::Json& document);
  // Durable when it returns nothing: the imposter's folder is gone. A missing one is fine.
  std::optional<std::string> remove(int port);

  std::filesystem::path file_for(int port) const;
  const std::filesystem::path& root() const { return root_; }

 private:
  std::variant<std::optional<StoredImposter>, std::string> load_folder(
      const std::filesystem::path& folder, const Warn& warn);

  std::filesystem::path root_;
};

}  // namespace rift
