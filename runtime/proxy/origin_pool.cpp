#include "runtime/proxy/origin_pool.h"

namespace rift::proxy {

std::unique_ptr<OriginConnection> OriginPool::take(const std::string& key) {
  auto it = idle_.find(key);
  if (it == idle_.end() || it->second.empty()) return nullptr;
  auto connection = std::move(it->second.back());
  it->second.pop_back();
  connection->reused = true;
  return connection;
}

void OriginPool::give(const std::string& key, std::unique_ptr<OriginConnection> connection) {
  auto& idle = idle_[key];
  if (idle.size() < kMaxIdlePerOrigin) idle.push_back(std::move(connection));
}

}  // namespace rift::proxy
