// The AOT tier's share of the equivalence tester: a fixed corpus of generated stub lists whose
// matchers are emitted as C++ at build time (generate_units.cpp), compiled into the test binary
// and checked against the reference scan (aot_equivalence_test.cpp). Both sides regenerate the
// lists from the same seeds, and each module carries the fingerprint of its list, so a corpus
// that drifted from its generated code fails loudly instead of testing the wrong thing.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/ir.h"
#include "tests/equivalence/stub_grammar.h"

namespace rift::equivalence::aot {

struct CorpusList {
  uint64_t seed;  // the grammar's seed; requests continue from the same generator
  int stubs;
  StubGrammar::Shape shape;
  int requests;
};

// Small overlapping lists for breadth, a few large dispatch-heavy ones for depth:
// 104,000 (list, request) pairs in all.
std::vector<CorpusList> corpus();

// List `list`'s stubs, drawn from `grammar` (seeded with corpus()[list].seed).
std::vector<ir::Stub> stubs_of(const CorpusList& list, StubGrammar& grammar);

}  // namespace rift::equivalence::aot
