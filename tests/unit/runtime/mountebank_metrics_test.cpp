// The admin port's Mountebank series (docs/metrics.md): /proc parsing, and the families rendered
// with prom-client's names, HELP texts, types, label sets and order.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/imposter/metrics.h"
#include "runtime/metrics/default_series.h"
#include "runtime/metrics/proc_self.h"

namespace rift::metrics {
namespace {

TEST(ProcSelf, StatusMemoryIsReadInBytes) {
  const auto memory = parse_status_memory(
      "Name:\trift\nVmPeak:\t  999 kB\nVmSize:\t  204800 kB\nVmData:\t   51200 kB\n"
      "VmRSS:\t   10240 kB\nThreads:\t4\n");
  EXPECT_EQ(memory.virtual_size, 204800 * 1024);
  EXPECT_EQ(memory.data, 51200 * 1024);
  EXPECT_EQ(memory.resident, 10240 * 1024);
  EXPECT_FALSE(parse_status_memory("Name:\trift\n").resident);
}

TEST(ProcSelf, MaxOpenFilesIsTheSoftLimit) {
  const char* limits =
      "Limit                     Soft Limit           Hard Limit           Units     \n"
      "Max cpu time              unlimited            unlimited            seconds   \n"
      "Max open files            1024                 524288               files     \n";
  EXPECT_EQ(parse_max_open_files(limits), 1024);
  EXPECT_FALSE(parse_max_open_files("Max open files            unlimited   unlimited   files\n"));
  EXPECT_FALSE(parse_max_open_files(""));
}

TEST(ProcSelf, StartTimeIsBootTimePlusTicks) {
  // A command name with spaces and a parenthesis must not shift the fields.
  const std::string stat =
      "4242 (rift (a b)) S 1 4242 4242 0 -1 4194560 100 0 0 0 5 3 0 0 20 0 4 0 12345 1000 250";
  EXPECT_DOUBLE_EQ(*parse_start_time(stat, "cpu  1 2 3\nbtime 1700000000\n", 100),
                   1700000000 + 123.45);
  EXPECT_FALSE(parse_start_time(stat, "cpu 1 2\n", 100));
  EXPECT_FALSE(parse_start_time("4242 (rift) S 1 2", "btime 1\n", 100));
}

TEST(ProcSelf, LiveSampleHasEveryValue) {
  const auto sample = sample_process();
  EXPECT_TRUE(sample.start_time_seconds);
  EXPECT_GT(*sample.memory.resident, 0);
  EXPECT_GT(*sample.memory.virtual_size, 0);
  EXPECT_TRUE(sample.memory.data);
  EXPECT_GT(*sample.open_fds, 0);
  EXPECT_GT(*sample.max_fds, 0);
}

TEST(DefaultSeries, NumbersPrintAsJavaScriptPrintsThem) {
  EXPECT_EQ(js_number(0), "0");
  EXPECT_EQ(js_number(79360000), "79360000");
  EXPECT_EQ(js_number(0.028783), "0.028783");
  EXPECT_EQ(js_number(1796528763), "1796528763");
  EXPECT_EQ(js_number(0.0020955933660157192), "0.0020955933660157192");
  EXPECT_EQ(js_number(1e21), "1e+21");
}

// The (HELP, TYPE, first series) of each family, in prom-client 14.2's order for Mountebank.
struct Family {
  const char* name;
  const char* type;
  const char* help;
};
constexpr Family kExpected[] = {
    {"mb_process_cpu_user_seconds_total", "counter", "Total user CPU time spent in seconds."},
    {"mb_process_cpu_system_seconds_total", "counter", "Total system CPU time spent in seconds."},
    {"mb_process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds."},
    {"mb_process_start_time_seconds", "gauge",
     "Start time of the process since unix epoch in seconds."},
    {"mb_process_resident_memory_bytes", "gauge", "Resident memory size in bytes."},
    {"mb_process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes."},
    {"mb_process_heap_bytes", "gauge", "Process heap size in bytes."},
    {"mb_process_open_fds", "gauge", "Number of open file descriptors."},
    {"mb_process_max_fds", "gauge", "Maximum number of open file descriptors."},
    {"mb_nodejs_eventloop_lag_seconds", "gauge", "Lag of event loop in seconds."},
    {"mb_nodejs_eventloop_lag_min_seconds", "gauge", "The minimum recorded event loop delay."},
    {"mb_nodejs_eventloop_lag_max_seconds", "gauge", "The maximum recorded event loop delay."},
    {"mb_nodejs_eventloop_lag_mean_seconds", "gauge",
     "The mean of the recorded event loop delays."},
    {"mb_nodejs_eventloop_lag_stddev_seconds", "gauge",
     "The standard deviation of the recorded event loop delays."},
    {"mb_nodejs_eventloop_lag_p50_seconds", "gauge",
     "The 50th percentile of the recorded event loop delays."},
    {"mb_nodejs_eventloop_lag_p90_seconds", "gauge",
     "The 90th percentile of the recorded event loop delays."},
    {"mb_nodejs_eventloop_lag_p99_seconds", "gauge",
     "The 99th percentile of the recorded event loop delays."},
    {"mb_nodejs_active_resources", "gauge",
     "Number of active resources that are currently keeping the event loop alive, grouped by "
     "async resource type."},
    {"mb_nodejs_active_resources_total", "gauge", "Total number of active resources."},
    {"mb_nodejs_active_handles", "gauge",
     "Number of active libuv handles grouped by handle type. Every handle type is C++ class "
     "name."},
    {"mb_nodejs_active_handles_total", "gauge", "Total number of active handles."},
    {"mb_nodejs_active_requests", "gauge",
     "Number of active libuv requests grouped by request type. Every request type is C++ class "
     "name."},
    {"mb_nodejs_active_requests_total", "gauge", "Total number of active requests."},
    {"mb_nodejs_heap_size_total_bytes", "gauge", "Process heap size from Node.js in bytes."},
    {"mb_nodejs_heap_size_used_bytes", "gauge", "Process heap size used from Node.js in bytes."},
    {"mb_nodejs_external_memory_bytes", "gauge", "Node.js external memory size in bytes."},
    {"mb_nodejs_heap_space_size_total_bytes", "gauge",
     "Process heap space size total from Node.js in bytes."},
    {"mb_nodejs_heap_space_size_used_bytes", "gauge",
     "Process heap space size used from Node.js in bytes."},
    {"mb_nodejs_heap_space_size_available_bytes", "gauge",
     "Process heap space size available from Node.js in bytes."},
    {"mb_nodejs_version_info", "gauge", "Node.js version info."},
    {"mb_nodejs_gc_duration_seconds", "histogram",
     "Garbage collection duration by kind, one of major, minor, incremental or weakcb."},
};

DefaultSeriesInput fixed_input() {
  DefaultSeriesInput input;
  input.process.cpu_user_seconds = 0.5;
  input.process.cpu_system_seconds = 0.25;
  input.process.start_time_seconds = 1700000000.4;
  input.process.memory = {1024, 2048, 4096};
  input.process.open_fds = 12;
  input.process.max_fds = 1024;
  input.heap = {1000, 600, 400, 50};
  input.listeners = 3;
  return input;
}

TEST(DefaultSeries, FamiliesHaveProcClientNamesHelpTypesAndOrder) {
  std::vector<std::string> families;
  default_families(families, fixed_input());
  ASSERT_EQ(families.size(), std::size(kExpected));
  for (size_t i = 0; i < families.size(); ++i) {
    const Family& want = kExpected[i];
    const std::string head = std::string("# HELP ") + want.name + " " + want.help + "\n# TYPE " +
                             want.name + " " + want.type;
    EXPECT_EQ(families[i].substr(0, head.size()), head) << families[i];
    EXPECT_NE(families[i].back(), '\n') << want.name;
  }
  EXPECT_NE(families[0].find("\nmb_process_cpu_user_seconds_total 0.5"), std::string::npos);
  EXPECT_NE(families[2].find("\nmb_process_cpu_seconds_total 0.75"), std::string::npos);
  EXPECT_NE(families[3].find("\nmb_process_start_time_seconds 1700000000"), std::string::npos);
  EXPECT_NE(families[4].find("\nmb_process_resident_memory_bytes 1024"), std::string::npos);
  EXPECT_NE(families[6].find("\nmb_process_heap_bytes 4096"), std::string::npos);
  EXPECT_NE(families[7].find("\nmb_process_open_fds 12"), std::string::npos);
  EXPECT_NE(families[8].find("\nmb_process_max_fds 1024"), std::string::npos);
  EXPECT_NE(families[17].find("\nmb_nodejs_active_resources{type=\"TCPServerWrap\"} 3"),
            std::string::npos);
  EXPECT_NE(families[19].find("\nmb_nodejs_active_handles{type=\"Server\"} 3"), std::string::npos);
  EXPECT_EQ(families[21].find("\nmb_"), std::string::npos);  // no libuv requests
  EXPECT_NE(families[23].find("\nmb_nodejs_heap_size_total_bytes 1050"), std::string::npos);
  EXPECT_NE(families[24].find("\nmb_nodejs_heap_size_used_bytes 650"), std::string::npos);
  const std::string spaces = families[26];
  size_t at = 0;
  for (const char* space : {"read_only", "new", "old", "code", "shared", "new_large_object",
                            "large_object", "code_large_object", "shared_large_object"}) {
    at = spaces.find(std::string("{space=\"") + space + "\"}", at);
    ASSERT_NE(at, std::string::npos) << space;
  }
  EXPECT_NE(spaces.find("{space=\"old\"} 1000"), std::string::npos);
  EXPECT_NE(families[29].find("\nmb_nodejs_version_info{version=\"" + std::string(kNodeVersion) +
                              "\",major=\"20\",minor=\"20\",patch=\"2\"} 1"),
            std::string::npos);
  EXPECT_EQ(families[30].find("\nmb_"), std::string::npos);  // GC: never observed
}

TEST(DefaultSeries, UnreadableValuesLeaveTheFamilyWithoutASeries) {
  DefaultSeriesInput input;
  std::vector<std::string> families;
  default_families(families, input);
  EXPECT_EQ(families[4],
            "# HELP mb_process_resident_memory_bytes Resident memory size in bytes.\n"
            "# TYPE mb_process_resident_memory_bytes gauge");
  EXPECT_EQ(families[17].find("\nmb_"), std::string::npos);  // no listener, no resource
}

TEST(ImposterFamilies, MountebanksOrderHelpAndLabels) {
  ImposterMetrics called;
  ImposterMetrics idle;
  called.requests.add(2);
  called.no_match.add();
  called.match_duration.observe(0.001);
  called.response_duration.observe(0.02);
  // Before the server's first imposter, Mountebank has not registered the families.
  EXPECT_TRUE(imposter_families({}, /*any_made=*/false).empty());
  const auto families = imposter_families({{"[http:4545 api] ", &called}, {"[http:4546] ", &idle}});
  ASSERT_EQ(families.size(), 5u);
  EXPECT_EQ(families[0].substr(0, families[0].find('\n', families[0].find("# TYPE"))),
            "# HELP mb_predicate_match_duration_seconds Time it takes to match the predicates and "
            "select a stub\n# TYPE mb_predicate_match_duration_seconds histogram");
  EXPECT_NE(families[0].find("mb_predicate_match_duration_seconds_bucket{le=\"0.01\",imposter=\"["
                             "http:4545 api] \"} 1"),
            std::string::npos);
  EXPECT_EQ(families[1],
            "# HELP mb_no_match_total Number of times no stub matched the request\n"
            "# TYPE mb_no_match_total counter\n"
            "mb_no_match_total{imposter=\"[http:4545 api] \"} 1");
  EXPECT_EQ(families[2],
            "# HELP mb_request_total Number of requests to the imposter\n"
            "# TYPE mb_request_total counter\n"
            "mb_request_total{imposter=\"[http:4545 api] \"} 2");
  EXPECT_NE(families[3].find("# TYPE mb_response_generation_duration_seconds histogram\n"),
            std::string::npos);
  EXPECT_NE(families[3].find("_bucket{le=\"30\",imposter=\"[http:4545 api] \"} 1"),
            std::string::npos);
  EXPECT_EQ(families[4],
            "# HELP mb_blocked_ip_total Number of times a connection was blocked from a "
            "non-whitelisted IP address\n# TYPE mb_blocked_ip_total counter");
  for (const auto& family : families) {
    EXPECT_EQ(family.find("4546"), std::string::npos) << family;  // never called: no series
  }
}

}  // namespace
}  // namespace rift::metrics
