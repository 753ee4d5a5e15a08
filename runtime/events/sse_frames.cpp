#include "runtime/events/sse_frames.h"

#include <nlohmann/json.hpp>

namespace rift::events {

// nlohmann::json keeps objects in a std::map, so reading the text back sorts every level.
std::string sorted_json(const ir::Json& value) {
  const auto replace = nlohmann::json::error_handler_t::replace;
  return nlohmann::json::parse(value.dump(-1, ' ', false, replace)).dump(-1, ' ', false, replace);
}

std::string frame(std::string_view event, std::optional<uint64_t> id, std::string_view data) {
  std::string out;
  out.reserve(event.size() + data.size() + 32);
  out.append("event: ").append(event).append("\n");
  if (id) out.append("id: ").append(std::to_string(*id)).append("\n");
  out.append("data: ").append(data).append("\n\n");
  return out;
}

}  // namespace rift::events
