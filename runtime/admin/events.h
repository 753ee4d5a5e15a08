// The admin event stream (docs/journal.md#event-stream): GET /events and its per-imposter alias
// GET /imposters/:id/savedRequests/stream. As in the reference Rift, a stream is recognised by
// its path alone, before the route table and whatever the method; its refusals are compact
// {"error": "..."} documents, not Mountebank's error list.
#pragma once

#include <memory>
#include <optional>
#include <string_view>
#include <variant>

#include "runtime/admin/call.h"
#include "runtime/admin/state.h"
#include "runtime/events/event_stream.h"

namespace rift::admin {

// True when `path` names an event stream.
bool is_event_stream(std::string_view path);

// The stream `call` asks for, or the reply refusing it.
std::variant<std::shared_ptr<events::EventStream>, AdminReply> open_event_stream(AdminState& state,
                                                                                 const Call& call);

}  // namespace rift::admin
