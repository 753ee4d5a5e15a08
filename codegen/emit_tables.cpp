#include "codegen/emit_tables.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <set>
#include <sstream>
#include <unordered_map>

#include "codegen/compiled_module.h"
#include "codegen/cpp_text.h"

namespace rift::codegen {
namespace {

std::string hex(uint64_t value) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%016" PRIx64 "ull", value);
  return text;
}

// re2c's custom input API over [cursor, limit): reading past the end yields 0, which no key
// contains, so the DFA stops there without a sentinel in the request's buffer.
constexpr const char* kRe2cPrologue =
    "  const unsigned char* cursor = reinterpret_cast<const unsigned char*>(path.data());\n"
    "  const unsigned char* const limit = cursor + path.size();\n"
    "  [[maybe_unused]] const unsigned char* marker = cursor;\n"
    "  /*!re2c\n"
    "    re2c:api = custom;\n"
    "    re2c:api:style = free-form;\n"
    "    re2c:define:YYCTYPE = \"unsigned char\";\n"
    "    re2c:define:YYPEEK = \"(cursor < limit ? *cursor : 0u)\";\n"
    "    re2c:define:YYSKIP = \"++cursor;\";\n"
    "    re2c:define:YYBACKUP = \"marker = cursor;\";\n"
    "    re2c:define:YYRESTORE = \"cursor = marker;\";\n"
    "    re2c:yyfill:enable = 0;\n";

}  // namespace

std::string string_table(const std::string& name, const std::vector<TableEntry>& entries,
                         const std::string& what) {
  size_t slots = 2;
  while (slots < entries.size() * 2) slots *= 2;
  const uint64_t mask = slots - 1;
  std::vector<const TableEntry*> table(slots, nullptr);
  for (const TableEntry& entry : entries) {
    uint64_t slot = compiled::folded_hash(entry.key) & mask;
    while (table[slot] != nullptr) slot = (slot + 1) & mask;
    table[slot] = &entry;
  }

  std::ostringstream out;
  out << "// " << comment_text(what, 160) << ": " << entries.size() << " key"
      << (entries.size() == 1 ? "" : "s") << " in " << slots << " slots -> id.\n"
      << "const StringSlot " << name << "_slots[] = {\n";
  size_t empty_run = 0;
  for (size_t slot = 0; slot < slots; ++slot) {
    const TableEntry* entry = table[slot];
    if (entry == nullptr) {
      out << (empty_run % 8 == 0 ? "    " : " ") << "{},";
      if (++empty_run % 8 == 0) out << "\n";
      continue;
    }
    if (empty_run % 8 != 0) out << "\n";
    empty_run = 0;
    out << "    {" << hex(compiled::folded_hash(entry->key)) << ", " << cpp_string(entry->key)
        << ", " << entry->key.size() << ", " << entry->value << "},\n";
  }
  if (empty_run % 8 != 0) out << "\n";
  out << "};\nconst StringTable " << name << " = {" << name << "_slots, " << mask << "};\n\n";
  return out.str();
}

bool re2c_expressible(const std::vector<TableEntry>& entries) {
  return std::all_of(entries.begin(), entries.end(), [](const TableEntry& entry) {
    return !re2c_folded_literal(entry.key).empty();
  });
}

std::string re2c_exact_function(const std::string& function, const std::vector<TableEntry>& entries,
                                const std::string& what) {
  std::ostringstream out;
  out << "// " << comment_text(what, 160) << ", one re2c DFA over case-insensitive literals.\n"
      << "int32_t " << function << "(std::string_view path) {\n"
      << kRe2cPrologue;
  for (const TableEntry& entry : entries) {
    // The longest literal that matches wins; it is the answer only if it is the whole path.
    out << "    " << re2c_folded_literal(entry.key) << " { return cursor == limit ? " << entry.value
        << " : -1; }\n";
  }
  out << "    * { return -1; }\n  */\n}\n\n";
  return out.str();
}

std::string re2c_prefix_function(const std::string& function,
                                 const std::vector<TableEntry>& entries, const std::string& what) {
  // chain[i]: the values of every key that is a prefix of key i (itself included), shortest
  // first; keys are folded already, so a plain comparison is the folded one.
  std::unordered_map<std::string, int32_t> value_of;
  for (const TableEntry& entry : entries) value_of.emplace(entry.key, entry.value);
  std::ostringstream chain;
  std::ostringstream begins;
  size_t chained = 0;
  for (const TableEntry& entry : entries) {
    begins << chained << ", ";
    chain << "   ";
    for (size_t length = 1; length <= entry.key.size(); ++length) {
      auto found = value_of.find(entry.key.substr(0, length));
      if (found == value_of.end()) continue;
      chain << " " << found->second << ",";
      ++chained;
    }
    chain << "  // " << comment_text(entry.key) << "\n";
  }
  begins << chained;

  std::ostringstream out;
  out << "// " << comment_text(what, 160) << ": the cells of every key that prefixes key i.\n"
      << "const int32_t " << function << "_chain[] = {\n"
      << chain.str() << "    -1,  // end\n};\n"
      << "const int32_t " << function << "_chain_begin[] = {" << begins.str() << "};\n\n"
      << "// The longest key that prefixes the path, or -1; one re2c DFA.\n"
      << "int32_t " << function << "_longest(std::string_view path) {\n"
      << kRe2cPrologue;
  for (size_t i = 0; i < entries.size(); ++i) {
    out << "    " << re2c_folded_literal(entries[i].key) << " { return " << i << "; }\n";
  }
  out << "    * { return -1; }\n  */\n}\n\n"
      << "void " << function << "(Probe& probe) {\n"
      << "  const int32_t longest = " << function << "_longest(probe.path());\n"
      << "  if (longest < 0) return;\n"
      << "  for (int32_t i = " << function << "_chain_begin[longest]; i < " << function
      << "_chain_begin[longest + 1]; ++i) {\n"
      << "    reach_cell(probe, " << function << "_chain[i]);\n  }\n}\n\n";
  return out.str();
}

std::string prefix_table_function(const std::string& function, const std::string& table,
                                  const std::vector<TableEntry>& entries, const std::string& what) {
  std::set<size_t> lengths;
  for (const TableEntry& entry : entries) lengths.insert(entry.key.size());
  std::ostringstream out;
  out << string_table(table, entries, what) << "const size_t " << table << "_lengths[] = {";
  for (size_t length : lengths) out << length << ", ";
  out << "};\n\n"
      << "// Every prefix of the path whose length some key has: a trie flattened by depth.\n"
      << "void " << function << "(Probe& probe) {\n"
      << "  const std::string_view path = probe.path();\n"
      << "  for (size_t length : " << table << "_lengths) {\n"
      << "    if (length > path.size()) break;\n"
      << "    reach_cell(probe, lookup(" << table << ", path.substr(0, length)));\n"
      << "  }\n}\n\n";
  return out.str();
}

std::string literal_automaton_tables(const std::string& name,
                                     const std::vector<std::string>& literals,
                                     const std::vector<int32_t>& cells,
                                     const LiteralAutomaton& automaton, const std::string& what) {
  std::ostringstream out;
  out << "// " << comment_text(what, 160) << ": one Aho-Corasick pass over the path.\n"
      << "const int32_t " << name << "_cells[] = {\n";
  for (size_t i = 0; i < literals.size(); ++i) {
    out << "    " << cells[i] << ",  // literal " << i << ": " << comment_text(literals[i]) << "\n";
  }
  out << "};\nconst LiteralState " << name << "_states[] = {\n";
  for (const auto& state : automaton.states()) {
    out << "    {" << state.first_edge << ", " << state.edge_count << ", " << state.fail << ", "
        << state.output << ", " << state.dict << "},\n";
  }
  out << "};\nconst LiteralEdge " << name << "_edges[] = {";
  size_t column = 0;
  for (const auto& edge : automaton.edges()) {
    out << (column++ % 8 == 0 ? "\n    " : " ") << "{" << static_cast<int>(edge.byte) << ", "
        << edge.next << "},";
  }
  out << "\n    {0, 0},  // end\n};\nconst int32_t " << name << "_root[256] = {";
  for (size_t byte = 0; byte < 256; ++byte) {
    out << (byte % 16 == 0 ? "\n    " : " ") << automaton.root()[byte] << ",";
  }
  out << "\n};\nconst LiteralAutomatonTables " << name << " = {" << name << "_states, " << name
      << "_edges, " << name << "_root};\n\n";
  return out.str();
}

}  // namespace rift::codegen
