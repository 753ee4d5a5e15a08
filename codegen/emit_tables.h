// The data-table and re2c pieces of a generated matcher: string -> id lookups over the folded
// literal sets a tree holds (exact paths, path prefixes, field values).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/literal_automaton.h"

namespace rift::codegen {

struct TableEntry {
  std::string key;  // folded
  int32_t value;
};

// `static const StringTable <name>` (and its slots): an open-addressing table at most half
// full, probed linearly from compiled::folded_hash(key).
std::string string_table(const std::string& name, const std::vector<TableEntry>& entries,
                         const std::string& what);

// Whether every key can be a re2c case-insensitive literal.
bool re2c_expressible(const std::vector<TableEntry>& entries);

// `static int32_t <function>(std::string_view path)`: the value of the key equal to the path
// (ASCII case-insensitively), or -1; one re2c DFA.
std::string re2c_exact_function(const std::string& function, const std::vector<TableEntry>& entries,
                                const std::string& what);

// `static void <function>(Probe& probe)`: reach_cell() for every key that is a prefix of the
// path. One re2c DFA finds the longest such key; a table lists, for each key, the shorter keys
// that are its prefixes, so the rest follow without reading the path again.
std::string re2c_prefix_function(const std::string& function,
                                 const std::vector<TableEntry>& entries, const std::string& what);

// The same contract for sets too large for a DFA: one table lookup per distinct key length.
std::string prefix_table_function(const std::string& function, const std::string& table,
                                  const std::vector<TableEntry>& entries, const std::string& what);

// `const LiteralAutomatonTables <name>` (states, edges, root row) and `<name>_cells`, the cell
// of each literal id.
std::string literal_automaton_tables(const std::string& name,
                                     const std::vector<std::string>& literals,
                                     const std::vector<int32_t>& cells,
                                     const LiteralAutomaton& automaton, const std::string& what);

}  // namespace rift::codegen
