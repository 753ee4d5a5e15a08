#include "runtime/imposter/request_journal.h"

#include <algorithm>
#include <functional>
#include <thread>

#include "runtime/base/clock.h"
#include "runtime/base/sharded_counter.h"

namespace rift {

void RequestJournal::record(const Request& request) {
  Entry entry{std::chrono::steady_clock::now(), std::chrono::system_clock::now(), request};
  // One shard per recording thread, mostly: a worker keeps writing where it wrote before.
  Shard& shard = shards_[thread_shard() % kShards];
  std::lock_guard lock(shard.mutex);
  if (shard.entries.size() < kCapacity) {
    shard.entries.push_back(std::move(entry));
    return;
  }
  shard.entries[shard.next] = std::move(entry);
  shard.next = (shard.next + 1) % kCapacity;
}

template <typename Visit>
void RequestJournal::for_each_kept(Visit&& visit) const {
  std::vector<const Entry*> all;
  std::vector<std::unique_lock<std::mutex>> locks;
  for (const Shard& shard : shards_) {
    locks.emplace_back(shard.mutex);
    for (const Entry& entry : shard.entries) all.push_back(&entry);
  }
  std::sort(all.begin(), all.end(),
            [](const Entry* a, const Entry* b) { return a->order < b->order; });
  const size_t skip = all.size() > kCapacity ? all.size() - kCapacity : 0;
  for (size_t i = skip; i < all.size(); ++i) visit(*all[i]);
}

ir::Json RequestJournal::to_json(const JournalFilter& keep) const {
  ir::Json out = ir::Json::array();
  for_each_kept([&](const Entry& kept) {
    if (keep && !keep(kept.request)) return;
    ir::Json entry = rift::to_json(kept.request);
    entry["timestamp"] = iso_timestamp(kept.at);
    out.push_back(std::move(entry));
  });
  return out;
}

size_t RequestJournal::count(const JournalFilter& keep) const {
  size_t count = 0;
  for_each_kept([&](const Entry& kept) { count += !keep || keep(kept.request); });
  return count;
}

void RequestJournal::remove(const JournalFilter& which) {
  for (Shard& shard : shards_) {
    std::lock_guard lock(shard.mutex);
    std::erase_if(shard.entries,
                  [&](const Entry& entry) { return !which || which(entry.request); });
    // Oldest first again, so that once the shard fills, the ring overwrites the oldest.
    std::sort(shard.entries.begin(), shard.entries.end(),
              [](const Entry& a, const Entry& b) { return a.order < b.order; });
    shard.next = 0;
  }
}

void RequestJournal::clear() {
  for (Shard& shard : shards_) {
    std::lock_guard lock(shard.mutex);
    shard.entries.clear();
    shard.next = 0;
  }
}

}  // namespace rift
