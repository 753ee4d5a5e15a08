// What the behavior steps share across imposters: the parsed lookup data sources and the threads
// that run shellTransform commands. One per server (serve() owns it), or one per imposter when
// an imposter is created without one (unit tests).
#pragma once

#include "runtime/behaviors/csv_cache.h"
#include "runtime/behaviors/shell_runner.h"

namespace rift::behaviors {

class Services {
 public:
  CsvCache& csv() { return csv_; }
  ShellRunner& shell() { return shell_; }
  // See ShellRunner::shutdown(): serve() calls it once the server has stopped listening.
  void shutdown() { shell_.shutdown(); }

 private:
  CsvCache csv_;
  ShellRunner shell_;  // last member: destroyed (commands killed, threads joined) first
};

}  // namespace rift::behaviors
