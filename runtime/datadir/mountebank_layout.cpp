#include "runtime/datadir/mountebank_layout.h"

#include "runtime/datadir/json_file.h"

namespace rift::mountebank_datadir {
namespace fs = std::filesystem;
namespace {

// A stub as Mountebank's filesystem repository stores it: a folder, no responses.
bool is_stub_folder(const ir::Json& stub) {
  return stub.is_object() && !stub.contains("responses") && stub.contains("meta") &&
         stub["meta"].is_object() && stub["meta"].contains("dir") &&
         stub["meta"]["dir"].is_string();
}

// A path from a Mountebank file, kept inside the imposter's folder.
std::variant<fs::path, std::string> inside(const fs::path& folder, const std::string& relative,
                                           const fs::path& named_in) {
  const fs::path path = fs::path(relative).lexically_normal();
  if (relative.empty() || path.is_absolute() || *path.begin() == "..") {
    return "corrupt Mountebank datadir: " + named_in.string() + " names '" + relative +
           "', outside " + folder.string();
  }
  return folder / path;
}

std::variant<ir::Json, std::string> read_responses(const fs::path& imposter_folder,
                                                   const std::string& stub_dir) {
  const fs::path imposter_file = imposter_folder / "imposter.json";
  auto stub_folder = inside(imposter_folder, stub_dir, imposter_file);
  if (auto* error = std::get_if<std::string>(&stub_folder)) return *error;
  const fs::path meta_file = std::get<fs::path>(stub_folder) / "meta.json";
  auto meta = read_json_file(meta_file);
  if (auto* error = std::get_if<std::string>(&meta)) return *error;
  const ir::Json& document = std::get<ir::Json>(meta);
  const auto files = document.is_object() ? document.find("responseFiles") : document.end();
  if (files == document.end() || !files->is_array()) {
    return "corrupt Mountebank datadir: " + meta_file.string() + " has no 'responseFiles' array";
  }
  ir::Json responses = ir::Json::array();
  for (const auto& name : *files) {
    if (!name.is_string()) {
      return "corrupt Mountebank datadir: " + meta_file.string() + " lists a non-string file";
    }
    auto file = inside(std::get<fs::path>(stub_folder), name.get<std::string>(), meta_file);
    if (auto* error = std::get_if<std::string>(&file)) return *error;
    auto response = read_json_file(std::get<fs::path>(file));
    if (auto* error = std::get_if<std::string>(&response)) return *error;
    responses.push_back(std::get<ir::Json>(std::move(response)));
  }
  return responses;
}

}  // namespace

bool has_stub_folders(const ir::Json& document) {
  if (!document.is_object() || !document.contains("stubs") || !document["stubs"].is_array()) {
    return false;
  }
  for (const auto& stub : document["stubs"]) {
    if (is_stub_folder(stub)) return true;
  }
  return false;
}

std::variant<ir::Json, std::string> inline_stubs(const ir::Json& document,
                                                 const fs::path& imposter_folder) {
  ir::Json out = document;
  if (!has_stub_folders(document)) return out;
  for (auto& stub : out["stubs"]) {
    if (!is_stub_folder(stub)) continue;
    auto responses = read_responses(imposter_folder, stub["meta"]["dir"].get<std::string>());
    if (auto* error = std::get_if<std::string>(&responses)) return *error;
    stub.erase("meta");
    stub["responses"] = std::get<ir::Json>(std::move(responses));
  }
  return out;
}

}  // namespace rift::mountebank_datadir
