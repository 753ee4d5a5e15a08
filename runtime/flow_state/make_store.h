// The flow store an imposter's `_rift.flowState` asks for, connected (docs/flow-state.md).
#pragma once

#include <memory>
#include <variant>

#include "compiler/errors.h"
#include "frontends/flow_store_settings.h"
#include "runtime/flow_state/flow_store.h"

namespace rift::flow_state {

// An in-memory store, or a Redis store that answered PING; a Redis that cannot be reached is a
// 400 at imposter creation, as the reference has it, not a store that fails later.
std::variant<std::shared_ptr<FlowStore>, MbError> make_store(
    const frontends::FlowStoreSettings& settings);

}  // namespace rift::flow_state
