#include "compiler/literal_automaton.h"

#include <algorithm>
#include <map>
#include <queue>

namespace rift {

LiteralAutomaton::LiteralAutomaton(const std::vector<std::string>& literals) {
  // The trie, with map children while building; flattened below.
  struct Node {
    std::map<uint8_t, int32_t> children;
    int32_t output = -1;
  };
  std::vector<Node> trie(1);
  for (size_t id = 0; id < literals.size(); ++id) {
    int32_t node = 0;
    for (char c : literals[id]) {
      const uint8_t byte = fold(static_cast<uint8_t>(c));
      auto found = trie[static_cast<size_t>(node)].children.find(byte);
      if (found == trie[static_cast<size_t>(node)].children.end()) {
        trie.emplace_back();
        const auto next = static_cast<int32_t>(trie.size() - 1);
        trie[static_cast<size_t>(node)].children.emplace(byte, next);
        node = next;
      } else {
        node = found->second;
      }
    }
    trie[static_cast<size_t>(node)].output = static_cast<int32_t>(id);
  }
  if (literals.empty()) return;

  states_.resize(trie.size());
  for (size_t node = 0; node < trie.size(); ++node) {
    State& state = states_[node];
    state.output = trie[node].output;
    state.first_edge = static_cast<int32_t>(edges_.size());
    state.edge_count = static_cast<int32_t>(trie[node].children.size());
    for (const auto& [byte, next] : trie[node].children) edges_.push_back({byte, next});
  }
  root_.fill(0);
  for (const auto& [byte, next] : trie[0].children) root_[byte] = next;

  // Failure and dictionary links, breadth first so a state's fail target is finished first.
  std::queue<int32_t> pending;
  for (const auto& [byte, next] : trie[0].children) {
    states_[static_cast<size_t>(next)].fail = 0;
    pending.push(next);
  }
  while (!pending.empty()) {
    const int32_t node = pending.front();
    pending.pop();
    for (const auto& [byte, child] : trie[static_cast<size_t>(node)].children) {
      const int32_t fail = step(states_[static_cast<size_t>(node)].fail, byte);
      State& state = states_[static_cast<size_t>(child)];
      state.fail = fail;
      const State& target = states_[static_cast<size_t>(fail)];
      state.dict = target.output >= 0 ? fail : target.dict;
      pending.push(child);
    }
  }
}

}  // namespace rift
