#include "runtime/metrics/default_series.h"

#include <charconv>
#include <cmath>
#include <optional>

namespace rift::metrics {
namespace {

// The V8 heap spaces Node 20 reports, in its order.
constexpr const char* kSpaces[] = {"read_only",
                                   "new",
                                   "old",
                                   "code",
                                   "shared",
                                   "new_large_object",
                                   "large_object",
                                   "code_large_object",
                                   "shared_large_object"};

class Families {
 public:
  explicit Families(std::vector<std::string>& out) : out_(out) {}

  // Starts a family; series() lines follow.
  void family(std::string_view name, std::string_view type, std::string_view help) {
    name_ = name;
    std::string& block = out_.emplace_back();
    block.append("# HELP mb_").append(name).append(" ").append(help).append("\n");
    block.append("# TYPE mb_").append(name).append(" ").append(type);
  }
  void series(std::string_view labels, double value) {
    std::string& block = out_.back();
    block.append("\nmb_").append(name_);
    if (!labels.empty()) block.append("{").append(labels).append("}");
    block.append(" ").append(js_number(value));
  }
  // A gauge or counter with one unlabelled series, left without one when `value` is unknown
  // (prom-client's collectors skip a value they could not read).
  void single(std::string_view name, std::string_view type, std::string_view help,
              std::optional<double> value) {
    family(name, type, help);
    if (value) series({}, *value);
  }

 private:
  std::vector<std::string>& out_;
  std::string_view name_;
};

std::optional<double> as_double(const std::optional<int64_t>& value) {
  if (!value) return std::nullopt;
  return static_cast<double>(*value);
}

}  // namespace

std::string js_number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  char buffer[64];
  // JavaScript writes plain decimals from 1e-7 up to 1e21, exponents outside.
  const double size = std::fabs(value);
  const bool plain = size == 0 || (size >= 1e-7 && size < 1e21);
  auto [end, error] =
      plain ? std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::fixed)
            : std::to_chars(buffer, buffer + sizeof(buffer), value);
  if (error != std::errc()) return "0";
  return std::string(buffer, end);
}

DefaultSeriesInput sample_default_series(int64_t listeners) {
  return {sample_process(), sample_heap(), listeners};
}

void default_families(std::vector<std::string>& out, const DefaultSeriesInput& input) {
  Families f(out);
  const ProcessSample& process = input.process;
  const HeapSample& heap = input.heap;

  // processCpuTotal
  f.single("process_cpu_user_seconds_total", "counter", "Total user CPU time spent in seconds.",
           process.cpu_user_seconds);
  f.single("process_cpu_system_seconds_total", "counter", "Total system CPU time spent in seconds.",
           process.cpu_system_seconds);
  f.single("process_cpu_seconds_total", "counter",
           "Total user and system CPU time spent in seconds.",
           process.cpu_user_seconds + process.cpu_system_seconds);
  // processStartTime: whole seconds, as prom-client rounds it.
  std::optional<double> start;
  if (process.start_time_seconds) start = std::round(*process.start_time_seconds);
  f.single("process_start_time_seconds", "gauge",
           "Start time of the process since unix epoch in seconds.", start);
  // osMemoryHeap (Linux): /proc/self/status
  f.single("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.",
           as_double(process.memory.resident));
  f.single("process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.",
           as_double(process.memory.virtual_size));
  f.single("process_heap_bytes", "gauge", "Process heap size in bytes.",
           as_double(process.memory.data));
  f.single("process_open_fds", "gauge", "Number of open file descriptors.",
           as_double(process.open_fds));
  f.single("process_max_fds", "gauge", "Maximum number of open file descriptors.",
           as_double(process.max_fds));

  // eventLoopLag: Rift's workers run their own loops; there is no one event loop to measure.
  f.single("nodejs_eventloop_lag_seconds", "gauge", "Lag of event loop in seconds.", 0);
  f.single("nodejs_eventloop_lag_min_seconds", "gauge", "The minimum recorded event loop delay.",
           0);
  f.single("nodejs_eventloop_lag_max_seconds", "gauge", "The maximum recorded event loop delay.",
           0);
  f.single("nodejs_eventloop_lag_mean_seconds", "gauge",
           "The mean of the recorded event loop delays.", 0);
  f.single("nodejs_eventloop_lag_stddev_seconds", "gauge",
           "The standard deviation of the recorded event loop delays.", 0);
  f.single("nodejs_eventloop_lag_p50_seconds", "gauge",
           "The 50th percentile of the recorded event loop delays.", 0);
  f.single("nodejs_eventloop_lag_p90_seconds", "gauge",
           "The 90th percentile of the recorded event loop delays.", 0);
  f.single("nodejs_eventloop_lag_p99_seconds", "gauge",
           "The 99th percentile of the recorded event loop delays.", 0);

  // processResources, processHandles, processRequests: the listening sockets are what keeps
  // Rift serving, as Node's TCP servers keep Mountebank's loop alive.
  const auto listeners = static_cast<double>(input.listeners);
  f.family("nodejs_active_resources", "gauge",
           "Number of active resources that are currently keeping the event loop alive, grouped "
           "by async resource type.");
  if (listeners > 0) f.series("type=\"TCPServerWrap\"", listeners);
  f.single("nodejs_active_resources_total", "gauge", "Total number of active resources.",
           listeners);
  f.family("nodejs_active_handles", "gauge",
           "Number of active libuv handles grouped by handle type. Every handle type is C++ class "
           "name.");
  if (listeners > 0) f.series("type=\"Server\"", listeners);
  f.single("nodejs_active_handles_total", "gauge", "Total number of active handles.", listeners);
  f.family("nodejs_active_requests", "gauge",
           "Number of active libuv requests grouped by request type. Every request type is C++ "
           "class name.");
  f.single("nodejs_active_requests_total", "gauge", "Total number of active requests.", 0);

  // heapSizeAndUsed and heapSpacesSizeAndUsed: glibc's heap (mallinfo2). The brk arenas stand for
  // V8's old space, the chunks malloc mapped on their own for its large-object space.
  const auto arena = static_cast<double>(heap.arena);
  const auto used = static_cast<double>(heap.arena_used);
  const auto spare = static_cast<double>(heap.arena_free);
  const auto mapped = static_cast<double>(heap.mmapped);
  f.single("nodejs_heap_size_total_bytes", "gauge", "Process heap size from Node.js in bytes.",
           arena + mapped);
  f.single("nodejs_heap_size_used_bytes", "gauge", "Process heap size used from Node.js in bytes.",
           used + mapped);
  f.single("nodejs_external_memory_bytes", "gauge", "Node.js external memory size in bytes.", 0);
  struct Kind {
    const char* name;
    const char* help;
    double old_space;
    double large_object;
  };
  const Kind kinds[] = {
      {"nodejs_heap_space_size_total_bytes", "Process heap space size total from Node.js in bytes.",
       arena, mapped},
      {"nodejs_heap_space_size_used_bytes", "Process heap space size used from Node.js in bytes.",
       used, mapped},
      {"nodejs_heap_space_size_available_bytes",
       "Process heap space size available from Node.js in bytes.", spare, 0},
  };
  for (const Kind& kind : kinds) {
    f.family(kind.name, "gauge", kind.help);
    for (const char* space : kSpaces) {
      const std::string_view name = space;
      const double value = name == "old"            ? kind.old_space
                           : name == "large_object" ? kind.large_object
                                                    : 0;
      f.series("space=\"" + std::string(space) + "\"", value);
    }
  }

  // version: the Node.js Mountebank would report (kNodeVersion).
  f.family("nodejs_version_info", "gauge", "Node.js version info.");
  {
    std::string_view digits = kNodeVersion.substr(1);
    std::string parts[3];
    for (auto& part : parts) {
      const size_t dot = digits.find('.');
      part = std::string(digits.substr(0, dot));
      digits = dot == std::string_view::npos ? std::string_view{} : digits.substr(dot + 1);
    }
    f.series("version=\"" + std::string(kNodeVersion) + "\",major=\"" + parts[0] + "\",minor=\"" +
                 parts[1] + "\",patch=\"" + parts[2] + "\"",
             1);
  }
  // gc: Rift collects no garbage; the histogram (label `kind`) is registered and never observed.
  f.family("nodejs_gc_duration_seconds", "histogram",
           "Garbage collection duration by kind, one of major, minor, incremental or weakcb.");
}

}  // namespace rift::metrics
