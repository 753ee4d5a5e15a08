#include "runtime/flow_state/memory_store.h"

#include <limits>

namespace rift::flow_state {
namespace {

using std::chrono::seconds;

std::string text_of(std::string_view text) {
  return std::string(text);
}

}  // namespace

MemoryStore::MemoryStore(int64_t ttl_seconds, Clock now)
    : ttl_seconds_(ttl_seconds), now_(std::move(now)), next_reap_(now_() + seconds(1)) {}

MemoryStore::Entry* MemoryStore::live(std::string_view flow, std::string_view key) {
  auto flow_it = flows_.find(text_of(flow));
  if (flow_it == flows_.end()) return nullptr;
  auto entry = flow_it->second.find(text_of(key));
  if (entry == flow_it->second.end()) return nullptr;
  if (entry->second.expires > now_()) return &entry->second;
  flow_it->second.erase(entry);
  if (flow_it->second.empty()) flows_.erase(flow_it);
  return nullptr;
}

void MemoryStore::write(std::string_view flow, std::string_view key, std::string text) {
  reap();
  flows_[text_of(flow)][text_of(key)] = Entry{std::move(text), now_() + seconds(ttl_seconds_)};
}

void MemoryStore::reap() {
  const auto now = now_();
  if (now < next_reap_) return;
  next_reap_ = now + seconds(1);
  for (auto flow = flows_.begin(); flow != flows_.end();) {
    std::erase_if(flow->second, [&](const auto& entry) { return entry.second.expires <= now; });
    flow = flow->second.empty() ? flows_.erase(flow) : std::next(flow);
  }
}

Result<std::optional<ir::Json>> MemoryStore::get(std::string_view flow, std::string_view key) {
  std::lock_guard lock(mutex_);
  const Entry* entry = live(flow, key);
  if (!entry) return std::optional<ir::Json>();
  return std::optional<ir::Json>(ir::Json::parse(entry->text));
}

Result<Done> MemoryStore::set(std::string_view flow, std::string_view key, const ir::Json& value) {
  std::string text = canonical_json(value);
  std::lock_guard lock(mutex_);
  write(flow, key, std::move(text));
  return Done{};
}

Result<bool> MemoryStore::remove(std::string_view flow, std::string_view key) {
  std::lock_guard lock(mutex_);
  if (!live(flow, key)) return false;
  auto flow_it = flows_.find(text_of(flow));
  flow_it->second.erase(text_of(key));
  if (flow_it->second.empty()) flows_.erase(flow_it);
  return true;
}

Result<Done> MemoryStore::clear(std::string_view flow) {
  std::lock_guard lock(mutex_);
  flows_.erase(text_of(flow));
  return Done{};
}

Result<int64_t> MemoryStore::incr_by(std::string_view flow, std::string_view key, int64_t delta) {
  std::lock_guard lock(mutex_);
  int64_t value = 0;
  if (const Entry* entry = live(flow, key)) {
    const ir::Json current = ir::Json::parse(entry->text);
    if (!current.is_number_integer()) {
      return StoreError{StoreError::Kind::kBadValue, "the value of '" + text_of(key) +
                                                         "' is not a whole number: " + entry->text};
    }
    value = current.get<int64_t>();
  }
  const bool overflows = delta > 0 ? value > std::numeric_limits<int64_t>::max() - delta
                                   : value < std::numeric_limits<int64_t>::min() - delta;
  if (overflows) {
    return StoreError{StoreError::Kind::kBadValue,
                      "incrementing '" + text_of(key) + "' would overflow a 64-bit integer"};
  }
  value += delta;
  write(flow, key, std::to_string(value));
  return value;
}

Result<bool> MemoryStore::compare_and_set(std::string_view flow, std::string_view key,
                                          const std::optional<ir::Json>& expected,
                                          const ir::Json& value) {
  const std::optional<std::string> want =
      expected ? std::optional(canonical_json(*expected)) : std::nullopt;
  std::string text = canonical_json(value);
  std::lock_guard lock(mutex_);
  const Entry* entry = live(flow, key);
  const bool holds = entry ? want && entry->text == *want : !want;
  if (!holds) return false;
  write(flow, key, std::move(text));
  return true;
}

Result<bool> MemoryStore::expire(std::string_view flow, std::string_view key, int64_t seconds) {
  std::lock_guard lock(mutex_);
  Entry* entry = live(flow, key);
  if (!entry) return false;
  if (seconds <= 0) {
    auto flow_it = flows_.find(text_of(flow));
    flow_it->second.erase(text_of(key));
    if (flow_it->second.empty()) flows_.erase(flow_it);
  } else {
    entry->expires = now_() + std::chrono::seconds(seconds);
  }
  return true;
}

Result<Done> MemoryStore::expire_flow(std::string_view flow, int64_t seconds) {
  std::lock_guard lock(mutex_);
  auto flow_it = flows_.find(text_of(flow));
  if (flow_it == flows_.end()) return Done{};
  const auto now = now_();
  if (seconds <= 0) {
    flows_.erase(flow_it);
    return Done{};
  }
  std::erase_if(flow_it->second, [&](const auto& entry) { return entry.second.expires <= now; });
  for (auto& [key, entry] : flow_it->second) entry.expires = now + std::chrono::seconds(seconds);
  if (flow_it->second.empty()) flows_.erase(flow_it);
  return Done{};
}

std::optional<size_t> MemoryStore::active_flows() {
  std::lock_guard lock(mutex_);
  const auto now = now_();
  size_t active = 0;
  for (const auto& [flow, keys] : flows_) {
    for (const auto& [key, entry] : keys) {
      if (entry.expires > now) {
        ++active;
        break;
      }
    }
  }
  return active;
}

size_t MemoryStore::stored_entries() {
  std::lock_guard lock(mutex_);
  size_t entries = 0;
  for (const auto& [flow, keys] : flows_) entries += keys.size();
  return entries;
}

}  // namespace rift::flow_state
