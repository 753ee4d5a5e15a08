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
#include <chrono>
#include <functional>
#include <mutex>
#include <vector>

#include "compiler/ir.h"
#include "compiler/request.h"

namespace rift {

// Which recorded requests an admin call means (a space, savedRequests?match=...); unset: all.
using JournalFilter = std::function<bool(const Request&)>;

class RequestJournal {
 public:
  static constexpr size_t kCapacity = 10'000;

  void record(const Request& request);
  // The newest kCapacity requests, oldest first, each with its `timestamp`
  // (docs/mountebank-semantics.md §1.5).
  ir::Json to_json(const JournalFilter& keep = {}) const;
  size_t count(const JournalFilter& keep) const;
  void clear();
  void remove(const JournalFilter& which);

 private:
  struct Entry {
    std::chrono::steady_clock::time_point order;  // arrival order across shards
    std::chrono::system_clock::time_point at;     // the timestamp shown
    Request request;
  };
  // A bounded ring: `next` is where the next entry goes once `entries` is full.
  struct Shard {
    mutable std::mutex mutex;
    std::vector<Entry> entries;
    size_t next = 0;
  };
  static constexpr size_t kShards = 8;

  std::array<Shard, kShards> shards_;

  // Calls visit(const Entry&) for the newest kCapacity entries, oldest first, under every
  // shard's lock: what to_json shows and count counts.
  template <typename Visit>
  void for_each_kept(Visit&& visit) const;
};

}  // namespace rift
