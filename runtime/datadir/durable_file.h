// Crash-safe file operations for --datadir: when one of these returns success, what it did
// survives a SIGKILL or a power cut, and a reader never sees a half-written file.
//
// Each function returns an error message naming the path and the failed call, or nothing.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace rift::durable {

// The temporary name `write_atomically` writes `target` under first (Mountebank's own
// `<file>.tmp`). Such a file is never the real thing: a loader deletes it.
std::filesystem::path temporary_for(const std::filesystem::path& target);
bool is_temporary(const std::filesystem::path& path);

// Writes `bytes` to the temporary file in `target`'s folder, fsyncs it, renames it over
// `target` and fsyncs the folder: `target` then holds either its old content or all of `bytes`.
std::optional<std::string> write_atomically(const std::filesystem::path& target,
                                            std::string_view bytes);

// Creates `folder` (and missing parents), fsyncing each parent whose entries changed.
std::optional<std::string> make_folder(const std::filesystem::path& folder);

// Removes `path` (a file or a whole tree) and fsyncs its parent. A missing path is not an error.
std::optional<std::string> remove(const std::filesystem::path& path);

// fsync on a folder, so the renames, creations and removals in it are on disk.
std::optional<std::string> sync_folder(const std::filesystem::path& folder);

}  // namespace rift::durable
