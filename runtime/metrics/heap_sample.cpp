#include "runtime/metrics/heap_sample.h"

#include <malloc.h>

namespace rift::metrics {

HeapSample sample_heap() {
  HeapSample sample;
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  const struct mallinfo2 info = mallinfo2();
  sample.arena = static_cast<int64_t>(info.arena);
  sample.arena_used = static_cast<int64_t>(info.uordblks);
  sample.arena_free = static_cast<int64_t>(info.fordblks);
  sample.mmapped = static_cast<int64_t>(info.hblkhd);
#endif
  return sample;
}

}  // namespace rift::metrics
