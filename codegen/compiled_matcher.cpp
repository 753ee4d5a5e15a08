#include "codegen/compiled_matcher.h"

#include <limits>

#include "compiler/ascii.h"

namespace rift::compiled {

bool folded_equals(std::string_view a, std::string_view b) {
  return ascii::iequals(a, b);
}

int32_t lookup(const StringTable& table, std::string_view key) {
  const uint64_t hash = folded_hash(key);
  for (uint64_t slot = hash & table.mask;; slot = (slot + 1) & table.mask) {
    const StringSlot& entry = table.slots[slot];
    if (entry.key == nullptr) return -1;
    if (entry.hash == hash && folded_equals(std::string_view(entry.key, entry.length), key)) {
      return entry.value;
    }
  }
}

int32_t lookup_exact(const StringTable& table, std::string_view key) {
  const uint64_t hash = folded_hash(key);
  for (uint64_t slot = hash & table.mask;; slot = (slot + 1) & table.mask) {
    const StringSlot& entry = table.slots[slot];
    if (entry.key == nullptr) return -1;
    if (entry.hash == hash && std::string_view(entry.key, entry.length) == key) return entry.value;
  }
}

Probe::Probe(RequestContext& context)
    : context_(context),
      method_(plan::lookup_text(context.request().method, method_scratch_)),
      path_(plan::lookup_text(context.request().path, path_scratch_)),
      flow_id_(context.request().flow_id) {}

const std::vector<std::string>& Probe::values(int field, std::string_view key) {
  return plan::request_values(context_, static_cast<plan::Field>(field), key);
}

namespace {

// FNV-1a over a canonical rendering of each predicate; order and nesting included.
class Digest {
 public:
  void add(std::string_view text) {
    for (char c : text) mix(static_cast<unsigned char>(c));
    mix(0xff);  // separator, so ("ab","c") and ("a","bc") differ
  }
  void add(int64_t value) { add(std::to_string(value)); }
  // Raw bytes, not dump(): a predicate may hold strings that are not valid UTF-8.
  void add_json(const ir::Json& value) {
    add(static_cast<int64_t>(value.type()));
    if (value.is_string()) {
      add(value.get_ref<const std::string&>());
    } else if (value.is_object()) {
      add(static_cast<int64_t>(value.size()));
      for (const auto& [key, item] : value.items()) {
        add(key);
        add_json(item);
      }
    } else if (value.is_array()) {
      add(static_cast<int64_t>(value.size()));
      for (const ir::Json& item : value) add_json(item);
    } else {
      add(value.dump());
    }
  }
  void add(const ir::Predicate& predicate) {
    add(static_cast<int64_t>(predicate.op));
    add_json(predicate.fields);
    add(static_cast<int64_t>(predicate.case_sensitive));
    add(predicate.except);
    add(predicate.jsonpath.value_or("\x01"));
    if (predicate.xpath) {
      add(predicate.xpath->selector);
      for (const auto& [prefix, uri] : predicate.xpath->ns) {
        add(prefix);
        add(uri);
      }
    } else {
      add("\x01");
    }
    add(predicate.inject);
    add(static_cast<int64_t>(predicate.children.size()));
    for (const ir::Predicate& child : predicate.children) add(child);
  }
  uint64_t value() const { return hash_; }

 private:
  void mix(unsigned char byte) {
    hash_ ^= byte;
    hash_ *= 1099511628211ull;
  }
  uint64_t hash_ = 1469598103934665603ull;
};

}  // namespace

uint64_t fingerprint(const std::vector<ir::Stub>& stubs) {
  Digest digest;
  digest.add("rift-plan-v2");
  digest.add(static_cast<int64_t>(stubs.size()));
  for (const ir::Stub& stub : stubs) {
    digest.add(stub.space ? "space:" + *stub.space : std::string("global"));
    digest.add(static_cast<int64_t>(stub.predicates.size()));
    for (const ir::Predicate& predicate : stub.predicates) digest.add(predicate);
  }
  return digest.value();
}

int CompiledMatcher::match(RequestContext& context) const {
  Probe probe(context);
  module_.reach(probe);

  // The same merge as the interpreter: leaves never share a stub, so repeatedly taking the
  // lowest next candidate visits candidates in Mountebank's order.
  const size_t leaves = probe.leaf_count();
  constexpr size_t kInline = 32;
  int32_t inline_next[kInline];
  std::vector<int32_t> heap_next;
  int32_t* next = inline_next;
  if (leaves > kInline) {
    heap_next.resize(leaves);
    next = heap_next.data();
  }
  for (size_t i = 0; i < leaves; ++i) next[i] = module_.leaves[probe.leaf(i)].begin;

  for (;;) {
    size_t best_leaf = leaves;
    int32_t best_stub = std::numeric_limits<int32_t>::max();
    for (size_t i = 0; i < leaves; ++i) {
      if (next[i] >= module_.leaves[probe.leaf(i)].end) continue;
      const int32_t stub = module_.candidates[next[i]].stub;
      if (stub < best_stub) {
        best_stub = stub;
        best_leaf = i;
      }
    }
    if (best_leaf == leaves) return kNoMatch;
    const CandidateEntry& candidate = module_.candidates[next[best_leaf]++];
    bool all_hold = true;
    for (int32_t r = 0; r < candidate.residual_count; ++r) {
      const int32_t predicate = module_.residuals[candidate.residual_begin + r];
      if (!tree_->predicates[static_cast<size_t>(predicate)].evaluate(context)) {
        all_hold = false;
        break;
      }
    }
    if (all_hold) return candidate.stub;
  }
}

std::variant<std::unique_ptr<Matcher>, std::string> bind(const Module& module,
                                                         const std::vector<ir::Stub>& stubs,
                                                         std::shared_ptr<const plan::Tree> tree) {
  if (module.abi_version != kAbiVersion) {
    return std::string(module.name) + " was generated for another riftc (ABI " +
           std::to_string(module.abi_version) + ", this runtime speaks " +
           std::to_string(kAbiVersion) + ")";
  }
  if (module.fingerprint != fingerprint(stubs) || module.stub_count != stubs.size() ||
      tree->stub_count != stubs.size()) {
    return std::string(module.name) + " was compiled from a different stub list";
  }
  return std::unique_ptr<Matcher>(std::make_unique<CompiledMatcher>(module, std::move(tree)));
}

}  // namespace rift::compiled
