// The contract between code riftc generates and the runtime that serves it.
//
// A generated translation unit holds one imposter's decision tree as native code plus data
// tables, and exports one `Module`. It includes nothing but this header, so it compiles in a
// fraction of a second and cannot reach into the runtime's internals: it asks a `Probe` for the
// request's method, path and field values, and names the leaves it reaches. Merging those
// leaves in stub order and running the residual predicates is shared code (compiled_matcher.cpp),
// so a compiled tier differs from the interpreter only in how it finds the leaves.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rift {
class RequestContext;
}

namespace rift::compiled {

// Bumped whenever this contract changes; a module built against another version is refused.
inline constexpr uint32_t kAbiVersion = 4;

// One candidate of a leaf: a stub and the residual predicates still to check for it.
struct CandidateEntry {
  int32_t stub;
  int32_t residual_begin;  // into Module::residuals
  int32_t residual_count;
};

// A leaf is a run of candidates in ascending stub order.
struct LeafRange {
  int32_t begin;  // into Module::candidates
  int32_t end;
};

// An open-addressing hash table of folded strings, emitted as data. Empty slots have key null.
struct StringSlot {
  uint64_t hash;
  const char* key;
  uint32_t length;
  int32_t value;
};
struct StringTable {
  const StringSlot* slots;
  uint64_t mask;  // slot count - 1 (a power of two)
};

// ASCII case-folding FNV-1a: equal to plan::FoldedHash, so tables built at compile time are
// probed with the same hash the interpreter uses.
constexpr uint64_t folded_hash(std::string_view text) {
  uint64_t hash = 1469598103934665603ull;
  for (char c : text) {
    const unsigned char byte = static_cast<unsigned char>(c);
    hash ^= (byte >= 'A' && byte <= 'Z') ? byte + 32 : byte;
    hash *= 1099511628211ull;
  }
  return hash;
}

// An Aho–Corasick automaton over folded literals (compiler/literal_automaton.h), as data.
struct LiteralState {
  int32_t first_edge;
  int32_t edge_count;
  int32_t fail;
  int32_t output;  // literal id, or -1
  int32_t dict;    // nearest state on the fail chain with an output, or -1
};
struct LiteralEdge {
  uint8_t byte;
  int32_t next;
};
struct LiteralAutomatonTables {
  const LiteralState* states;
  const LiteralEdge* edges;
  const int32_t* root;  // 256 entries: the root's transitions
};

// Calls found(id) for every occurrence of every literal in `text`.
template <typename Found>
void scan_literals(const LiteralAutomatonTables& automaton, std::string_view text, Found&& found) {
  int32_t state = 0;
  for (char c : text) {
    auto byte = static_cast<uint8_t>(c);
    if (byte >= 'A' && byte <= 'Z') byte = static_cast<uint8_t>(byte + 32);
    for (;;) {
      if (state == 0) {
        state = automaton.root[byte];
        break;
      }
      const LiteralState& current = automaton.states[state];
      const LiteralEdge* edge = automaton.edges + current.first_edge;
      const LiteralEdge* const end = edge + current.edge_count;
      while (edge != end && edge->byte != byte) ++edge;
      if (edge != end) {
        state = edge->next;
        break;
      }
      state = current.fail;
    }
    const LiteralState& reached = automaton.states[state];
    for (int32_t s = reached.output >= 0 ? state : reached.dict; s >= 0;
         s = automaton.states[s].dict) {
      found(automaton.states[s].output);
    }
  }
}

// The value stored under `key` (compared ASCII case-insensitively), or -1.
int32_t lookup(const StringTable& table, std::string_view key);
// The value stored under exactly `key`, or -1: for space ids, which compare byte for byte. The
// table is built as any other (keys equal but for case sit in one probe run).
int32_t lookup_exact(const StringTable& table, std::string_view key);
bool folded_equals(std::string_view a, std::string_view b);

// Field ids, equal to plan::Field.
inline constexpr int kFieldQuery = 0;
inline constexpr int kFieldHeader = 1;
inline constexpr int kFieldBodySelector = 2;
inline constexpr int kFieldScenario = 3;

// What generated code may ask of a request, and where it reports the leaves it reached.
class Probe {
 public:
  explicit Probe(RequestContext& context);
  Probe(const Probe&) = delete;  // method() and path() may view its own members
  Probe& operator=(const Probe&) = delete;
  // The request's method and path as the tree's tables compare them (plan::lookup_text).
  std::string_view method() const { return method_; }
  std::string_view path() const { return path_; }
  // The request's flow id, as the space tables compare it: exactly (docs/spaces.md).
  std::string_view flow_id() const { return flow_id_; }
  // Every value the request has for (field, key), folded (plan::request_values).
  const std::vector<std::string>& values(int field, std::string_view key);
  void reach(int32_t leaf) {
    if (leaf < 0) return;
    // A literal found twice in the path reaches its leaves twice; merging them once is enough.
    for (size_t i = 0; i < count_; ++i) {
      if (inline_[i] == leaf) return;
    }
    if (count_ < kInline) {
      inline_[count_++] = leaf;
    } else {
      overflow_.push_back(leaf);
    }
  }

  // For the matcher that merges the leaves.
  RequestContext& context() { return context_; }
  size_t leaf_count() const { return count_ + overflow_.size(); }
  int32_t leaf(size_t i) const { return i < count_ ? inline_[i] : overflow_[i - count_]; }

 private:
  static constexpr size_t kInline = 32;
  RequestContext& context_;
  // Lower-cased copies, only for non-ASCII text (plan::lookup_text); declared before the views.
  std::string method_scratch_;
  std::string path_scratch_;
  std::string_view method_;
  std::string_view path_;
  std::string_view flow_id_;
  int32_t inline_[kInline];
  size_t count_ = 0;
  std::vector<int32_t> overflow_;
};

// Exact-value routing inside a cell: the request's values for (field, key) are looked up in a
// table of the values stubs demand.
struct ValueIndex {
  int field;
  const char* key;
  size_t key_length;
  const StringTable* values;
};

// What one (method, path key) pair files: a leaf for stubs with no exact value to route on, and
// the value indexes of the rest.
struct Cell {
  int32_t rest_leaf;
  int32_t first_index;  // into the unit's ValueIndex table
  int32_t index_count;
};

// Reaches every leaf of cell `cell` (none if negative). Here rather than in each unit: the JIT
// precompiles this header, so code in it costs nothing per compile.
inline void reach_cell_of(Probe& probe, const Cell* cells, const ValueIndex* indexes,
                          int32_t cell) {
  if (cell < 0) return;
  const Cell& entry = cells[cell];
  probe.reach(entry.rest_leaf);
  for (int32_t i = entry.first_index; i < entry.first_index + entry.index_count; ++i) {
    const ValueIndex& index = indexes[i];
    for (const std::string& value :
         probe.values(index.field, std::string_view(index.key, index.key_length))) {
      probe.reach(lookup(*index.values, value));
    }
  }
}

struct Module {
  uint32_t abi_version;
  const char* name;      // e.g. "imposter_4545"
  int port;              // the imposter it was compiled from
  uint64_t fingerprint;  // compiled::fingerprint of that imposter's stub list
  size_t stub_count;
  void (*reach)(Probe&);  // reports every leaf the request reaches
  const CandidateEntry* candidates;
  const int32_t* residuals;  // indexes into plan::Tree::predicates
  const LeafRange* leaves;
  size_t leaf_count;
};

}  // namespace rift::compiled
