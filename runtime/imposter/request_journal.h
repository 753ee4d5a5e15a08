// The requests an imposter recorded (recordRequests, --mock), kept as they arrived and turned
// into Mountebank's JSON only when the admin API reads them.
//
// Recording is on the request path, so it must cost little and not serialize the workers:
// entries go to one of a few shards chosen by the recording thread (each with its own lock, so
// workers on different cores rarely meet), and the JSON form is built on read. Like the
// reference Rift, the journal keeps the newest 10,000 requests (`kCapacity`); the request count
// (`numberOfRequests`) keeps growing past it.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

#include "compiler/ir.h"
#include "compiler/request.h"

namespace rift {

// Which recorded requests an admin call means (a space, savedRequests?match=...); unset: all.
using JournalFilter = std::function<bool(const Request&)>;

// A recorded request and its admin JSON form (with its timestamp).
struct RecordedRequest {
  Request request;
  ir::Json json;
};

// One read of the journal through the `since` cursor (docs/journal.md).
struct JournalPage {
  ir::Json requests = ir::Json::array();
  // The index of the newest request ever recorded (0: none): the next read's `since`, so a
  // reader moves past what its filter left out.
  uint64_t next_index = 0;
  // The cap dropped a request newer than `since` before this read could see it.
  bool truncated = false;
};

class RequestJournal {
 public:
  static constexpr size_t kCapacity = 10'000;

  struct Recorded {
    uint64_t index;
    std::chrono::system_clock::time_point at;
  };
  Recorded record(const Request& request);
  // A recorded request as the admin API shows it: Mountebank's form plus its `timestamp`.
  static ir::Json entry_json(const Request& request, std::chrono::system_clock::time_point at);
  // The newest kCapacity requests, oldest first, each with its `timestamp`
  // (docs/mountebank-semantics.md §1.5).
  ir::Json to_json(const JournalFilter& keep = {}) const;
  // The kept requests `keep` selects whose index is above `since` (unset: all). Every recorded
  // request has an index: 1, 2, 3 ... in arrival order, never reused, not reset by a clear.
  JournalPage read(const JournalFilter& keep, std::optional<uint64_t> since) const;
  size_t count(const JournalFilter& keep) const;
  // Copies of the kept requests `keep` selects, oldest first: for work that must not hold the
  // journal's locks (POST .../verify runs predicates, maybe JavaScript, on each).
  std::vector<RecordedRequest> copies(const JournalFilter& keep) const;
  void clear();
  void remove(const JournalFilter& which);

 private:
  struct Entry {
    uint64_t index;                            // arrival order across shards, from 1
    std::chrono::system_clock::time_point at;  // the timestamp shown
    Request request;
  };
  // A bounded ring: `next` is where the next entry goes once `entries` is full.
  struct Shard {
    mutable std::mutex mutex;
    std::vector<Entry> entries;
    size_t next = 0;
    uint64_t evicted = 0;  // the newest index the ring overwrote
  };
  static constexpr size_t kShards = 8;

  std::array<Shard, kShards> shards_;
  std::atomic<uint64_t> last_index_{0};

  // Calls visit(const Entry&) for the newest kCapacity entries, oldest first, under every
  // shard's lock: what to_json shows and count counts. Returns the newest index dropped by the
  // cap (a shard's ring, or the kCapacity view), 0 if none.
  template <typename Visit>
  uint64_t for_each_kept(Visit&& visit) const;
};

}  // namespace rift
