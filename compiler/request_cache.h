// RequestCache: a per-request cache whose entries outlive the request, and its typed keys.
//
// The evaluator caches work per request under keys fixed at prepare time (a normalization
// profile plus a field), so consecutive requests ask for the same keys. Entries therefore stay
// in place between requests, keeping their keys, hash nodes and buffers, and count only when
// stamped with the current request's generation: a steady stream of requests allocates nothing
// here.
//
// Keys are structs compared member by member, never texts joined with separators: a field name,
// a selector or an `except` pattern may hold any character, so no separator can keep two keys
// apart. Keys own their strings (an entry outlives the plan whose predicates built its key);
// lookups go by a key built at prepare time, or by a view of one (ValuesKeyView), so a lookup
// allocates nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rift {

namespace plan {
enum class Field : uint8_t;  // compiler/plan.h
}  // namespace plan

namespace cache_keys {

inline void combine(size_t& seed, size_t value) {
  seed ^= value + 0x9E3779B97F4A7C15ull + (seed << 6) + (seed >> 2);
}
inline size_t hash_text(std::string_view text) {
  return std::hash<std::string_view>{}(text);
}

}  // namespace cache_keys

// How a request text was normalized (predicates::Transform by value, `except` by its pattern and
// flag), so that predicates that normalize alike share entries.
struct NormalizationKey {
  bool lower_keys = false;
  bool lower_values = false;
  bool has_except = false;
  bool except_ignore_case = false;
  std::string except;  // the pattern's source

  bool operator==(const NormalizationKey&) const = default;
  friend size_t hash_value(const NormalizationKey& key) {
    size_t seed = cache_keys::hash_text(key.except);
    cache_keys::combine(seed, (key.lower_keys ? 1u : 0u) | (key.lower_values ? 2u : 0u) |
                                  (key.has_except ? 4u : 0u) | (key.except_ignore_case ? 8u : 0u));
    return seed;
  }
};

// The selector applied to a request text, if any (kNone: the entry holds the text itself).
struct SelectionKey {
  enum class Kind : uint8_t { kNone, kJsonPath, kXPath };
  Kind kind = Kind::kNone;
  std::string selector;                                 // as evaluated (folded when it folds)
  std::vector<std::pair<std::string, std::string>> ns;  // xpath: prefix -> URI, by prefix
  bool force_strings = false;                           // deepEquals: every scalar a string

  bool operator==(const SelectionKey&) const = default;
  friend size_t hash_value(const SelectionKey& key) {
    size_t seed = cache_keys::hash_text(key.selector);
    cache_keys::combine(seed, static_cast<size_t>(key.kind) * 2 + (key.force_strings ? 1 : 0));
    for (const auto& [prefix, uri] : key.ns) {
      cache_keys::combine(seed, cache_keys::hash_text(prefix));
      cache_keys::combine(seed, cache_keys::hash_text(uri));
    }
    return seed;
  }
};

// The key of RequestContext::Caches' fields, parsed and documents: one top-level request field
// (named as the predicate names it, folded unless caseSensitive), how it was normalized and, for
// a selector's result, which selector. `parsed` holds tryJSON of the field's text under a key
// without a selection, and tryJSON of the selection's result under a key with one.
struct FieldKey {
  NormalizationKey normalization;
  SelectionKey selection;
  std::string field;

  bool operator==(const FieldKey&) const = default;
  friend size_t hash_value(const FieldKey& key) {
    size_t seed = cache_keys::hash_text(key.field);
    cache_keys::combine(seed, hash_value(key.normalization));
    cache_keys::combine(seed, hash_value(key.selection));
    return seed;
  }
};

// The key of plan::request_values' entries: a request value source and its key (a folded query
// or header name, or a jsonpath selector); looked up through ValuesKeyView without a copy.
struct ValuesKeyView {
  plan::Field field;
  std::string_view key;
};
inline size_t hash_value(const ValuesKeyView& view) {
  size_t seed = cache_keys::hash_text(view.key);
  cache_keys::combine(seed, static_cast<size_t>(view.field));
  return seed;
}
struct ValuesKey {
  plan::Field field;
  std::string key;

  explicit ValuesKey(ValuesKeyView view) : field(view.field), key(view.key) {}
  bool operator==(const ValuesKey&) const = default;
  friend bool operator==(const ValuesKey& a, const ValuesKeyView& b) {
    return a.field == b.field && a.key == b.key;
  }
  friend size_t hash_value(const ValuesKey& key) {
    return hash_value(ValuesKeyView{key.field, key.key});
  }
};

// Hashes any key type above through its hash_value; transparent, so that a map keyed by ValuesKey
// is searched by a ValuesKeyView.
struct CacheKeyHash {
  using is_transparent = void;
  template <typename Key>
  size_t operator()(const Key& key) const {
    return hash_value(key);
  }
};

template <typename Key, typename Value>
class RequestCache {
 public:
  // The entry for `key` (a Key, or a view a Key is built from), and true when the current
  // request has not filled it yet: the caller fills it now (it starts empty). References stay
  // valid while other keys are added.
  template <typename Lookup>
  std::pair<Value&, bool> try_emplace(const Lookup& key) {
    auto it = entries_.find(key);
    if (it == entries_.end()) it = entries_.try_emplace(Key(key)).first;
    Entry& entry = it->second;
    if (entry.generation == generation_) return {entry.value, false};
    entry.generation = generation_;
    if constexpr (requires { entry.value.clear(); }) {
      entry.value.clear();  // keeps the capacity
    } else {
      entry.value = Value();
    }
    return {entry.value, true};
  }

  // True when the current request has filled the entry for `key`.
  template <typename Lookup>
  bool contains(const Lookup& key) const {
    const auto it = entries_.find(key);
    return it != entries_.end() && it->second.generation == generation_;
  }

  // How many entries the current request has filled.
  size_t filled() const {
    size_t count = 0;
    for (const auto& [key, entry] : entries_) count += entry.generation == generation_ ? 1 : 0;
    return count;
  }

  // Ends the current request: every entry becomes stale. Keys that stopped recurring (after a
  // plan change) are dropped once there are too many to be the working set of one plan.
  void next_request() {
    ++generation_;
    if (entries_.size() > kMaxKeptEntries) entries_.clear();
  }

 private:
  static constexpr size_t kMaxKeptEntries = 1024;
  struct Entry {
    uint64_t generation = 0;
    Value value{};
  };
  std::unordered_map<Key, Entry, CacheKeyHash, std::equal_to<>> entries_;
  uint64_t generation_ = 1;
};

}  // namespace rift
