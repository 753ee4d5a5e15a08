// LiteralAutomaton: which of many literals occur anywhere in a text, in one pass.
//
// Aho–Corasick over ASCII-folded bytes: a trie of the literals plus failure links, flattened
// into arrays (states, sorted edges, a dense root row) so the interpreter walks it directly and
// codegen can emit it as data. The planner files stubs whose path patterns demand a literal
// (`contains`, `endsWith`, the literal every match of a `matches` regex must contain) under that
// literal; one scan of the request path then yields the candidate set for all of them, however
// many there are.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rift {

class LiteralAutomaton {
 public:
  struct State {
    int32_t first_edge = 0;  // into edges()
    int32_t edge_count = 0;
    int32_t fail = 0;     // the longest proper suffix of this state's string that is a state
    int32_t output = -1;  // the literal this state spells, or -1
    int32_t dict = -1;    // the nearest state on the fail chain with an output, or -1
  };
  struct Edge {
    uint8_t byte;  // folded
    int32_t next;
  };

  LiteralAutomaton() = default;
  // Literal ids are positions in `literals`, which must be folded, distinct and non-empty.
  explicit LiteralAutomaton(const std::vector<std::string>& literals);

  // Calls `found(id)` for every literal occurring in `text` (compared ASCII case-insensitively),
  // once per occurrence.
  template <typename Found>
  void scan(std::string_view text, Found&& found) const {
    if (states_.empty()) return;
    int32_t state = 0;
    for (char c : text) {
      state = step(state, fold(static_cast<unsigned char>(c)));
      for (int32_t s = states_[state].output >= 0 ? state : states_[state].dict; s >= 0;
           s = states_[s].dict) {
        found(states_[s].output);
      }
    }
  }

  const std::vector<State>& states() const { return states_; }
  const std::vector<Edge>& edges() const { return edges_; }
  const std::array<int32_t, 256>& root() const { return root_; }
  bool empty() const { return states_.empty(); }

  static uint8_t fold(uint8_t byte) { return byte >= 'A' && byte <= 'Z' ? byte + 32 : byte; }

 private:
  int32_t step(int32_t state, uint8_t byte) const {
    for (;;) {
      if (state == 0) return root_[byte];
      const State& current = states_[state];
      const Edge* first = edges_.data() + current.first_edge;
      for (const Edge* edge = first; edge != first + current.edge_count; ++edge) {
        if (edge->byte == byte) return edge->next;
      }
      state = current.fail;
    }
  }

  std::vector<State> states_;  // 0 is the root
  std::vector<Edge> edges_;
  std::array<int32_t, 256> root_{};  // the root's transitions, dense: 0 means stay at the root
};

}  // namespace rift
