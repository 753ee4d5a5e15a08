#include "runtime/events/sse_frames.h"

namespace rift::events {

std::string frame(std::string_view event, std::optional<uint64_t> id, std::string_view data) {
  std::string out;
  out.reserve(event.size() + data.size() + 32);
  out.append("event: ").append(event).append("\n");
  if (id) out.append("id: ").append(std::to_string(*id)).append("\n");
  out.append("data: ").append(data).append("\n\n");
  return out;
}

}  // namespace rift::events
