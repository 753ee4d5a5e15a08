#include "runtime/flow_state/make_store.h"

#include "runtime/flow_state/memory_store.h"
#include "runtime/flow_state/redis_store.h"

namespace rift::flow_state {

std::variant<std::shared_ptr<FlowStore>, MbError> make_store(
    const frontends::FlowStoreSettings& settings) {
  if (settings.backend == frontends::FlowStoreSettings::Backend::kInMemory) {
    return std::shared_ptr<FlowStore>(std::make_shared<MemoryStore>(settings.ttl_seconds));
  }
  auto store = RedisStore::connect(settings);
  if (auto* why = std::get_if<std::string>(&store)) {
    return bad_data("Flow store configuration error: " + *why);
  }
  return std::shared_ptr<FlowStore>(std::move(std::get<std::unique_ptr<RedisStore>>(store)));
}

}  // namespace rift::flow_state
