// What the kernel says about this process, read the way prom-client's default collectors read it
// for Mountebank (docs/metrics.md, "Mountebank's process series"): CPU time, start time, memory
// from /proc/self/status, open and maximum file descriptors. The parsers take the file's text so
// they can be tested on fixed input; sample_process() reads the live files.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace rift::metrics {

// /proc/self/status's VmRSS, VmSize and VmData, in bytes (the file says kB).
struct StatusMemory {
  std::optional<int64_t> resident;      // VmRSS
  std::optional<int64_t> virtual_size;  // VmSize
  std::optional<int64_t> data;          // VmData: prom-client's "heap"
};
StatusMemory parse_status_memory(std::string_view status);

// The soft limit on the "Max open files" line of /proc/self/limits; nullopt when it is missing or
// "unlimited".
std::optional<int64_t> parse_max_open_files(std::string_view limits);

// The process's start in seconds since the epoch: field 22 of /proc/self/stat (clock ticks since
// boot) over `ticks_per_second`, plus "btime" from /proc/stat.
std::optional<double> parse_start_time(std::string_view self_stat, std::string_view proc_stat,
                                       long ticks_per_second);

struct ProcessSample {
  double cpu_user_seconds = 0;
  double cpu_system_seconds = 0;
  std::optional<double> start_time_seconds;
  StatusMemory memory;
  std::optional<int64_t> open_fds;
  std::optional<int64_t> max_fds;
};
// Reads /proc/self and getrusage now.
ProcessSample sample_process();

}  // namespace rift::metrics
