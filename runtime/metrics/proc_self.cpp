#include "runtime/metrics/proc_self.h"

#include <dirent.h>
#include <sys/resource.h>
#include <unistd.h>

#include <charconv>
#include <fstream>
#include <sstream>
#include <string>

namespace rift::metrics {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

template <typename T>
std::optional<T> number(std::string_view text) {
  T value{};
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data()) return std::nullopt;
  return value;
}

// Calls `line(text)` for each line of `text`.
template <typename F>
void each_line(std::string_view text, F&& line) {
  while (!text.empty()) {
    const size_t end = text.find('\n');
    line(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
}

std::string read_file(const char* path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return std::move(text).str();
}

std::optional<int64_t> count_open_fds() {
  DIR* dir = opendir("/proc/self/fd");
  if (dir == nullptr) return std::nullopt;
  int64_t count = 0;
  while (const dirent* entry = readdir(dir)) {
    if (entry->d_name[0] != '.') ++count;
  }
  closedir(dir);
  return count - 1;  // the directory's own descriptor, as prom-client leaves out readdir's
}

}  // namespace

StatusMemory parse_status_memory(std::string_view status) {
  StatusMemory memory;
  each_line(status, [&](std::string_view line) {
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) return;
    const std::string_view key = line.substr(0, colon);
    std::optional<int64_t>* field = key == "VmRSS"    ? &memory.resident
                                    : key == "VmSize" ? &memory.virtual_size
                                    : key == "VmData" ? &memory.data
                                                      : nullptr;
    if (field == nullptr) return;
    std::string_view value = trim(line.substr(colon + 1));
    if (value.ends_with("kB")) value = trim(value.substr(0, value.size() - 2));
    if (const auto kb = number<int64_t>(value)) *field = *kb * 1024;
  });
  return memory;
}

std::optional<int64_t> parse_max_open_files(std::string_view limits) {
  std::optional<int64_t> soft;
  each_line(limits, [&](std::string_view line) {
    constexpr std::string_view kName = "Max open files";
    if (!line.starts_with(kName)) return;
    // "Max open files            1024                 524288               files"
    std::string_view rest = trim(line.substr(kName.size()));
    rest = rest.substr(0, rest.find_first_of(" \t"));
    soft = number<int64_t>(rest);
  });
  return soft;
}

std::optional<double> parse_start_time(std::string_view self_stat, std::string_view proc_stat,
                                       long ticks_per_second) {
  if (ticks_per_second <= 0) return std::nullopt;
  // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
  const size_t paren = self_stat.rfind(')');
  if (paren == std::string_view::npos) return std::nullopt;
  std::string_view rest = self_stat.substr(paren + 1);
  std::optional<uint64_t> start_ticks;
  for (int field = 3; field <= 22; ++field) {
    rest = trim(rest);
    const size_t end = rest.find_first_of(" \t\n");
    const std::string_view token = rest.substr(0, end);
    if (token.empty()) return std::nullopt;
    if (field == 22) start_ticks = number<uint64_t>(token);
    if (end == std::string_view::npos) break;
    rest.remove_prefix(end);
  }
  if (!start_ticks) return std::nullopt;
  std::optional<int64_t> boot;
  each_line(proc_stat, [&](std::string_view line) {
    if (line.starts_with("btime ")) boot = number<int64_t>(trim(line.substr(6)));
  });
  if (!boot) return std::nullopt;
  return static_cast<double>(*boot) +
         static_cast<double>(*start_ticks) / static_cast<double>(ticks_per_second);
}

ProcessSample sample_process() {
  ProcessSample sample;
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) == 0) {
    sample.cpu_user_seconds =
        static_cast<double>(usage.ru_utime.tv_sec) + usage.ru_utime.tv_usec / 1e6;
    sample.cpu_system_seconds =
        static_cast<double>(usage.ru_stime.tv_sec) + usage.ru_stime.tv_usec / 1e6;
  }
  sample.start_time_seconds =
      parse_start_time(read_file("/proc/self/stat"), read_file("/proc/stat"), sysconf(_SC_CLK_TCK));
  sample.memory = parse_status_memory(read_file("/proc/self/status"));
  sample.open_fds = count_open_fds();
  sample.max_fds = parse_max_open_files(read_file("/proc/self/limits"));
  return sample;
}

}  // namespace rift::metrics
