#include "runtime/datadir/store.h"

#include <algorithm>

#include "runtime/datadir/durable_file.h"
#include "runtime/datadir/json_file.h"
#include "runtime/datadir/mountebank_layout.h"

namespace rift {
namespace fs = std::filesystem;
namespace {

constexpr const char* kImposterFile = "imposter.json";

// Deletes what a write cut short left behind: it was never renamed into place, so never
// acknowledged, and it may be incomplete.
std::optional<std::string> remove_temporaries(const fs::path& folder,
                                              const DatadirStore::Warn& warn) {
  std::error_code error;
  bool removed = false;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    if (!entry.is_regular_file(error) || !durable::is_temporary(entry.path())) continue;
    if (!fs::remove(entry.path(), error) && error) {
      return "remove " + entry.path().string() + ": " + error.message();
    }
    warn("Removed " + entry.path().string() + ": a write cut short, never acknowledged");
    removed = true;
  }
  if (error) return "read " + folder.string() + ": " + error.message();
  return removed ? durable::sync_folder(folder) : std::nullopt;
}

}  // namespace

DatadirStore::DatadirStore(fs::path root) : root_(std::move(root)) {}

fs::path DatadirStore::file_for(int port) const {
  return root_ / std::to_string(port) / kImposterFile;
}

std::variant<std::vector<StoredImposter>, std::string> DatadirStore::load(const Warn& warn) {
  if (auto failed = durable::make_folder(root_)) return "--datadir: " + *failed;
  std::error_code error;
  if (!fs::is_directory(root_, error)) return "--datadir " + root_.string() + " is not a folder";

  std::vector<fs::path> folders;
  for (const auto& entry : fs::directory_iterator(root_, error)) {
    if (entry.is_directory(error)) {
      folders.push_back(entry.path());
    } else {
      warn("Skipping " + entry.path().filename().string() + " during loading; not a folder");
    }
  }
  if (error) return "read " + root_.string() + ": " + error.message();
  std::sort(folders.begin(), folders.end());

  std::vector<StoredImposter> imposters;
  for (const auto& folder : folders) {
    auto loaded = load_folder(folder, warn);
    if (auto* failed = std::get_if<std::string>(&loaded)) return *failed;
    if (auto& imposter = std::get<std::optional<StoredImposter>>(loaded)) {
      imposters.push_back(std::move(*imposter));
    }
  }
  std::sort(imposters.begin(), imposters.end(),
            [](const auto& a, const auto& b) { return a.port < b.port; });
  return imposters;
}

std::variant<std::optional<StoredImposter>, std::string> DatadirStore::load_folder(
    const fs::path& folder, const Warn& warn) {
  if (auto failed = remove_temporaries(folder, warn)) return *failed;
  const fs::path file = folder / kImposterFile;
  const std::string name = folder.filename().string();
  std::error_code error;
  if (!fs::exists(file, error)) {
    if (fs::is_empty(folder, error)) {
      // The folder of an imposter whose first write was cut short: nothing was acknowledged.
      if (auto failed = durable::remove(folder)) return *failed;
      warn("Removed " + folder.string() + ": an imposter folder with nothing in it");
    } else {
      warn("Skipping " + name + " during loading; missing " + kImposterFile);
    }
    return std::optional<StoredImposter>();
  }

  auto read = read_json_file(file);
  if (auto* failed = std::get_if<std::string>(&read)) return "Corrupted database: " + *failed;
  ir::Json document = std::get<ir::Json>(std::move(read));
  if (!document.is_object()) {
    return "Corrupted database: " + file.string() + " does not hold an imposter (a JSON object)";
  }
  // Rift saves each imposter under its own port, so the folder names it. Anything else
  // (Mountebank never writes it) would be rewritten to another folder and load twice later.
  const ir::Json& port = document["port"];
  if (!port.is_number_integer() || port.get<long long>() < 1 || port.get<long long>() > 65535 ||
      std::to_string(port.get<long long>()) != name) {
    return "Corrupted database: " + file.string() + " has port " + port.dump() +
           ", which is not its folder's name (" + name + ")";
  }
  auto inlined = mountebank_datadir::inline_stubs(document, folder);
  if (auto* failed = std::get_if<std::string>(&inlined)) return "Corrupted database: " + *failed;
  return std::optional<StoredImposter>(
      StoredImposter{port.get<int>(), std::get<ir::Json>(std::move(inlined)), file});
}

std::optional<std::string> DatadirStore::save(int port, const ir::Json& document) {
  const fs::path file = file_for(port);
  if (auto failed = durable::make_folder(file.parent_path())) return failed;
  std::string text;
  try {
    text = document.dump(2);
  } catch (const ir::Json::type_error& invalid) {  // a string that is not UTF-8
    return "cannot save " + file.string() + ": " + invalid.what();
  }
  text += '\n';
  return durable::write_atomically(file, text);
}

std::optional<std::string> DatadirStore::remove(int port) {
  const fs::path folder = root_ / std::to_string(port);
  std::error_code error;
  if (!fs::is_directory(folder, error)) return std::nullopt;  // never someone else's file
  // The file first: once its removal is on disk the imposter is gone for good, even if the
  // rest of the folder (Mountebank's stub folders) is cut short.
  if (auto failed = durable::remove(folder / kImposterFile)) return failed;
  return durable::remove(folder);
}

}  // namespace rift
