// The text of Server-Sent Events frames as the reference Rift writes them: `event:`, then `id:`
// when the event is numbered, then one `data:` line of compact JSON whose keys are sorted at
// every level, then a blank line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "compiler/canonical_json.h"
#include "compiler/ir.h"

namespace rift::events {

std::string frame(std::string_view event, std::optional<uint64_t> id, std::string_view data);

// The comment a stream sends while idle, so proxies and clients see it is alive.
inline constexpr std::string_view kPingFrame = ": ping\n\n";

}  // namespace rift::events
