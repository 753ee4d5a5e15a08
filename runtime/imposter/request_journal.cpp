#include "runtime/imposter/request_journal.h"

#include <algorithm>
#include <functional>
#include <thread>

#include "runtime/base/clock.h"
#include "runtime/base/sharded_counter.h"

namespace rift {

ir::Json RequestJournal::entry_json(const Request& request,
                                    std::chrono::system_clock::time_point at) {
  ir::Json entry = rift::to_json(request);
  entry["timestamp"] = iso_timestamp(at);
  return entry;
}

RequestJournal::Recorded RequestJournal::record(const Request& request) {
  Entry entry{last_index_.fetch_add(1, std::memory_order_relaxed) + 1,
              std::chrono::system_clock::now(), request};
  const Recorded recorded{entry.index, entry.at};
  // One shard per recording thread, mostly: a worker keeps writing where it wrote before.
  Shard& shard = shards_[thread_shard() % kShards];
  std::lock_guard lock(shard.mutex);
  if (shard.entries.size() < kCapacity) {
    shard.entries.push_back(std::move(entry));
    return recorded;
  }
  shard.evicted = std::max(shard.evicted, shard.entries[shard.next].index);
  shard.entries[shard.next] = std::move(entry);
  shard.next = (shard.next + 1) % kCapacity;
  return recorded;
}

template <typename Visit>
uint64_t RequestJournal::for_each_kept(Visit&& visit) const {
  std::vector<const Entry*> all;
  std::vector<std::unique_lock<std::mutex>> locks;
  uint64_t evicted = 0;
  for (const Shard& shard : shards_) {
    locks.emplace_back(shard.mutex);
    evicted = std::max(evicted, shard.evicted);
    for (const Entry& entry : shard.entries) all.push_back(&entry);
  }
  std::sort(all.begin(), all.end(),
            [](const Entry* a, const Entry* b) { return a->index < b->index; });
  const size_t skip = all.size() > kCapacity ? all.size() - kCapacity : 0;
  if (skip > 0) evicted = std::max(evicted, all[skip - 1]->index);
  for (size_t i = skip; i < all.size(); ++i) visit(*all[i]);
  return evicted;
}

JournalPage RequestJournal::read(const JournalFilter& keep, std::optional<uint64_t> since) const {
  JournalPage page;
  // Read before the entries: a request recorded meanwhile is then seen by the next read.
  page.next_index = last_index_.load(std::memory_order_relaxed);
  const uint64_t evicted = for_each_kept([&](const Entry& kept) {
    if (since && kept.index <= *since) return;
    if (kept.index > page.next_index) return;
    if (keep && !keep(kept.request)) return;
    page.requests.push_back(entry_json(kept.request, kept.at));
  });
  page.truncated = since && evicted > *since;
  return page;
}

ir::Json RequestJournal::to_json(const JournalFilter& keep) const {
  ir::Json out = ir::Json::array();
  for_each_kept([&](const Entry& kept) {
    if (keep && !keep(kept.request)) return;
    out.push_back(entry_json(kept.request, kept.at));
  });
  return out;
}

std::vector<RecordedRequest> RequestJournal::copies(const JournalFilter& keep) const {
  std::vector<RecordedRequest> out;
  for_each_kept([&](const Entry& kept) {
    if (keep && !keep(kept.request)) return;
    out.push_back({kept.request, entry_json(kept.request, kept.at)});
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
              [](const Entry& a, const Entry& b) { return a.index < b.index; });
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
