// The admin API's endpoints: the one list of them. Each row is a method, a path pattern
// (":name" matches one segment) and the handler of that resource; adding an endpoint is adding
// a row. The HTTP listener and in-process callers both enter through route().
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "runtime/admin/call.h"
#include "runtime/admin/state.h"
#include "runtime/events/event_bus.h"

namespace rift::admin {

using Handler = void (*)(AdminState& state, Call& call);

enum RouteFlags : unsigned {
  kNoFlags = 0,
  // The :id segment must name a running imposter (Call::imposter), else 404 "no such resource".
  kNeedsImposter = 1u << 0,
  // Not a method that reads (GET, HEAD), yet changes nothing: allowed on a frozen mock.
  kChangesNothing = 1u << 1,
};

struct Route {
  std::string_view method;   // "GET" also answers HEAD
  std::string_view pattern;  // e.g. "/imposters/:id/stubs/:stubIndex"
  Handler handler;
  unsigned flags = kNoFlags;
  // What a 2xx answer tells the event stream about the :id imposter, if anything. The routes
  // on the imposter set (create, delete, replace) announce from their handlers instead.
  std::optional<events::Action> announces = std::nullopt;
};

std::span<const Route> routes();

// Finds the row for the call's method and path and runs it. Paths no row has answer 404 as
// Express does; OPTIONS on a known path answers 200; a frozen mock refuses changes with 405.
void route(AdminState& state, Call& call);

}  // namespace rift::admin
