// How many worker threads an engine may be given: `rift start --threads` and librift's
// `threads` option both hold to it.
#pragma once

namespace rift {

inline constexpr unsigned kMaxThreads = 1024;

}  // namespace rift
