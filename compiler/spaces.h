// Spaces (docs/spaces.md): many tests share one imposter, each seeing the global stubs and the
// stubs of its own space, chosen by the request's flow id. The one rule every matcher, the tree
// included, agrees with.
#pragma once

#include "compiler/ir.h"
#include "compiler/request.h"

namespace rift {

// Whether `request` can see a stub of space `space` (unset: global) at all.
inline bool visible_to(const std::optional<std::string>& space, const Request& request) {
  return !space || *space == request.flow_id;
}
inline bool visible_to(const ir::Stub& stub, const Request& request) {
  return visible_to(stub.space, request);
}

}  // namespace rift
