// The C heap as glibc's mallinfo2 reports it: Rift's nearest honest value for the V8 heap sizes
// that prom-client reports for Mountebank (docs/metrics.md). Rift has no garbage-collected heap
// of its own; SpiderMonkey's, when scripts run, is not counted here.
#pragma once

#include <cstdint>

namespace rift::metrics {

struct HeapSample {
  int64_t arena = 0;       // bytes obtained with brk/sbrk for the main and thread arenas
  int64_t arena_used = 0;  // of which allocated
  int64_t arena_free = 0;  // of which free
  int64_t mmapped = 0;     // bytes in chunks glibc gave their own mmap (large allocations)
};
HeapSample sample_heap();

}  // namespace rift::metrics
