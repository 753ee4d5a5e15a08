#include "codegen/emit_matcher.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <sstream>

#include "codegen/compiled_matcher.h"
#include "codegen/compiled_module.h"
#include "codegen/cpp_text.h"
#include "codegen/emit_tables.h"

namespace rift::codegen {
namespace {

template <typename Value>
std::vector<std::pair<std::string, const Value*>> sorted_entries(
    const plan::FoldedMap<Value>& map) {
  std::vector<std::pair<std::string, const Value*>> entries;
  entries.reserve(map.size());
  for (const auto& [key, value] : map) entries.emplace_back(key, &value);
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  return entries;
}

std::string describe(const ir::Predicate& predicate) {
  std::string text = ir::op_name(predicate.op);
  if (!predicate.fields.empty()) {
    text += " " + predicate.fields.dump(-1, ' ', false, ir::Json::error_handler_t::replace);
  }
  if (predicate.case_sensitive) text += " caseSensitive";
  if (!predicate.except.empty()) text += " except /" + predicate.except + "/";
  if (predicate.jsonpath) text += " jsonpath " + *predicate.jsonpath;
  if (predicate.xpath) text += " xpath " + predicate.xpath->selector;
  if (!predicate.children.empty()) {
    text += " (" + std::to_string(predicate.children.size()) + " clauses)";
  }
  return text;
}

const char* field_constant(plan::Field field) {
  switch (field) {
    case plan::Field::kQuery:
      return "kFieldQuery";
    case plan::Field::kHeader:
      return "kFieldHeader";
    case plan::Field::kBodySelector:
      return "kFieldBodySelector";
    case plan::Field::kScenario:
      return "kFieldScenario";
  }
  return "kFieldQuery";
}

class Emitter {
 public:
  Emitter(const plan::Tree& tree, const EmitOptions& options) : tree_(tree), options_(options) {}

  std::string run(const std::vector<ir::Stub>& stubs, std::string_view stem, int port,
                  std::string_view label, const std::string& symbol);
  bool uses_re2c() const { return uses_re2c_; }

 private:
  int32_t leaf(const plan::Leaf& leaf, const std::string& where);
  int32_t cell(const plan::Cell& cell, const std::string& where);
  std::string exact_paths(const plan::MethodNode& node, const std::string& id,
                          const std::string& label);
  std::string prefixes(const plan::MethodNode& node, const std::string& id,
                       const std::string& label);
  std::string substrings(const plan::MethodNode& node, const std::string& id,
                         const std::string& label);
  void method_node(const plan::MethodNode& node, const std::string& function,
                   const std::string& label);
  std::string scope_dispatch(const plan::Scope& scope, const std::string& prefix,
                             const std::string& label);
  std::string spaces();

  const plan::Tree& tree_;
  const EmitOptions& options_;
  bool uses_re2c_ = false;
  int tables_ = 0;

  std::ostringstream candidates_;  // rows of kCandidates
  std::ostringstream leaves_;      // rows of kLeaves
  std::vector<int32_t> residuals_;
  int32_t candidate_count_ = 0;
  int32_t leaf_count_ = 0;
  std::ostringstream value_tables_;  // string tables the value indexes use
  std::ostringstream indexes_;       // rows of kIndexes
  int32_t index_count_ = 0;
  std::ostringstream cells_;  // rows of kCells
  int32_t cell_count_ = 0;
  std::ostringstream paths_;    // exact-path and prefix lookups
  std::ostringstream methods_;  // one function per method node
};

int32_t Emitter::leaf(const plan::Leaf& leaf, const std::string& where) {
  if (leaf.candidates.empty()) return -1;
  const int32_t begin = candidate_count_;
  for (const plan::Candidate& candidate : leaf.candidates) {
    std::string checks;
    for (int predicate : candidate.residual) {
      checks += checks.empty() ? "" : "; ";
      checks += describe(tree_.predicates[static_cast<size_t>(predicate)].source());
    }
    candidates_ << "    {" << candidate.stub_index << ", " << residuals_.size() << ", "
                << candidate.residual.size() << "},  // stub " << candidate.stub_index << ": "
                << (checks.empty() ? "no residual check" : comment_text(checks)) << "\n";
    residuals_.insert(residuals_.end(), candidate.residual.begin(), candidate.residual.end());
    ++candidate_count_;
  }
  leaves_ << "    {" << begin << ", " << candidate_count_ << "},  // leaf " << leaf_count_ << ": "
          << comment_text(where) << " (" << leaf.candidates.size() << " stub"
          << (leaf.candidates.size() == 1 ? "" : "s") << ")\n";
  return leaf_count_++;
}

int32_t Emitter::cell(const plan::Cell& cell, const std::string& where) {
  const int32_t rest = leaf(cell.rest, where);
  const int32_t first_index = index_count_;
  for (const plan::ValueIndex& index : cell.indexes) {
    std::vector<TableEntry> entries;
    for (const auto& [value, value_leaf] : sorted_entries(index.by_value)) {
      const std::string label =
          where + " " + plan::field_name(index.field) + " " + index.key + " = " + value;
      entries.push_back({value, leaf(*value_leaf, label)});
    }
    const std::string table = "kValues" + std::to_string(tables_++);
    value_tables_ << string_table(table, entries,
                                  where + ": " + plan::field_name(index.field) + " " + index.key);
    indexes_ << "    {" << field_constant(index.field) << ", " << cpp_string(index.key) << ", "
             << index.key.size() << ", &" << table << "},  // index " << index_count_ << ": "
             << comment_text(where) << "\n";
    ++index_count_;
  }
  const auto count = static_cast<int32_t>(cell.indexes.size());
  if (rest < 0 && count == 0) return -1;
  cells_ << "    {" << rest << ", " << first_index << ", " << count << "},  // cell " << cell_count_
         << ": " << comment_text(where) << "\n";
  return cell_count_++;
}

// The function name that maps a request path to its exact-path cell (or -1).
std::string Emitter::exact_paths(const plan::MethodNode& node, const std::string& id,
                                 const std::string& label) {
  std::vector<TableEntry> entries;
  for (const auto& [path, path_cell] : sorted_entries(node.by_path)) {
    entries.push_back({path, cell(*path_cell, label + " " + path)});
  }
  std::erase_if(entries, [](const TableEntry& entry) { return entry.value < 0; });
  if (entries.empty()) return "";
  const std::string function = "exact_path_" + id;
  const std::string what = label + ": " + std::to_string(entries.size()) + " exact path" +
                           (entries.size() == 1 ? "" : "s");
  if (entries.size() <= options_.re2c_max_keys && re2c_expressible(entries)) {
    uses_re2c_ = true;
    paths_ << re2c_exact_function(function, entries, what);
  } else {
    const std::string table = "kExactPaths_" + id;
    paths_ << string_table(table, entries, what) << "int32_t " << function
           << "(std::string_view path) { return lookup(" << table << ", path); }\n\n";
  }
  return function;
}

// The function name that reaches the cell of every prefix of the request path in the set.
std::string Emitter::prefixes(const plan::MethodNode& node, const std::string& id,
                              const std::string& label) {
  std::vector<TableEntry> entries;
  for (const auto& [prefix, prefix_cell] : sorted_entries(node.by_prefix)) {
    entries.push_back({prefix, cell(*prefix_cell, label + " " + prefix + "...")});
  }
  std::erase_if(entries, [](const TableEntry& entry) { return entry.value < 0; });
  if (entries.empty()) return "";
  const std::string function = "reach_prefixes_" + id;
  const std::string what = label + ": " + std::to_string(entries.size()) + " path prefix" +
                           (entries.size() == 1 ? "" : "es");
  if (entries.size() <= options_.re2c_max_keys && re2c_expressible(entries)) {
    uses_re2c_ = true;
    paths_ << re2c_prefix_function(function, entries, what);
  } else {
    paths_ << prefix_table_function(function, "kPrefixes_" + id, entries, what);
  }
  return function;
}

// The function name that reaches the cell of every literal the request path contains.
std::string Emitter::substrings(const plan::MethodNode& node, const std::string& id,
                                const std::string& label) {
  const plan::SubstringIndex& index = node.by_substring;
  if (index.literals.empty()) return "";
  std::vector<int32_t> cells;
  for (size_t i = 0; i < index.literals.size(); ++i) {
    cells.push_back(cell(index.cells[i], label + " *" + index.literals[i] + "*"));
  }
  const std::string function = "reach_substrings_" + id;
  paths_ << literal_automaton_tables("kSubstrings_" + id, index.literals, cells, index.automaton,
                                     label + ": " + std::to_string(index.literals.size()) +
                                         " literal(s) the path must contain")
         << "void " << function << "(Probe& probe) {\n"
         << "  scan_literals(kSubstrings_" << id << ", probe.path(), [&](int32_t literal) {\n"
         << "    reach_cell(probe, kSubstrings_" << id << "_cells[literal]);\n  });\n}\n\n";
  return function;
}

void Emitter::method_node(const plan::MethodNode& node, const std::string& function,
                          const std::string& label) {
  const std::string id = function.substr(std::string("reach_method_").size());
  const std::string exact = exact_paths(node, id, label);
  const std::string prefix = prefixes(node, id, label);
  const std::string substring = substrings(node, id, label);
  const int32_t any = cell(node.any_path, label + " any path");

  methods_ << "// " << comment_text(label) << ": " << node.by_path.size() << " exact path(s), "
           << node.by_prefix.size() << " prefix(es), " << node.by_substring.literals.size()
           << " substring(s), "
           << (any < 0 ? "nothing for other paths"
                       : "cell " + std::to_string(any) + " for any path")
           << "\nvoid " << function << "([[maybe_unused]] Probe& probe) {\n";
  if (!exact.empty()) methods_ << "  reach_cell(probe, " << exact << "(probe.path()));\n";
  if (!prefix.empty()) methods_ << "  " << prefix << "(probe);\n";
  if (!substring.empty()) methods_ << "  " << substring << "(probe);\n";
  if (any >= 0) methods_ << "  reach_cell(probe, " << any << ");\n";
  methods_ << "}\n\n";
}

// The body of a function that reaches one scope's method nodes: a chain of comparisons, then
// the any-method node. `prefix` keeps each scope's function names apart ("" for the global one).
std::string Emitter::scope_dispatch(const plan::Scope& scope, const std::string& prefix,
                                    const std::string& label) {
  // Methods in a stable order, so the same config always generates the same file.
  std::ostringstream dispatch;
  dispatch << "  [[maybe_unused]] const std::string_view method = probe.method();\n";
  int method_id = 0;
  for (const auto& [method, node] : sorted_entries(scope.by_method)) {
    const std::string function =
        "reach_method_" + prefix + identifier(method) + "_" + std::to_string(method_id++);
    method_node(*node, function, label + "method " + method);
    dispatch << "  " << (method_id == 1 ? "" : "else ") << "if (folded_equals(method, "
             << cpp_string(method) << ")) " << function << "(probe);\n";
  }
  const std::string any = "reach_method_" + prefix + "any";
  method_node(scope.any_method, any, label + "any method");
  dispatch << "  " << any << "(probe);\n";
  return dispatch.str();
}

// One function per space (sorted ids), and `reach_space`, which calls the one of the request's
// flow id (compared exactly, docs/spaces.md). Empty when no stub lives in a space.
std::string Emitter::spaces() {
  if (tree_.by_space.empty()) return "";
  std::vector<std::string> ids;
  for (const auto& [space, scope] : tree_.by_space) ids.push_back(space);
  std::sort(ids.begin(), ids.end());
  std::ostringstream functions;
  std::vector<TableEntry> entries;
  for (size_t i = 0; i < ids.size(); ++i) {
    const std::string prefix = "s" + std::to_string(i) + "_";
    const std::string label = "space " + ids[i] + ": ";
    const std::string body = scope_dispatch(tree_.by_space.find(ids[i])->second, prefix, label);
    functions << "// " << comment_text(label + "the stubs of this space") << "\nvoid reach_space_"
              << i << "(Probe& probe) {\n"
              << body << "}\n\n";
    entries.push_back({ids[i], static_cast<int32_t>(i)});
  }
  std::ostringstream out;
  out << functions.str()
      << string_table("kSpaces", entries, std::to_string(ids.size()) + " space id(s)")
      << "void (*const kSpaceReach[])(Probe&) = {";
  for (size_t i = 0; i < ids.size(); ++i)
    out << (i % 8 == 0 ? "\n    " : " ") << "reach_space_" << i << ",";
  out << "\n};\n\n"
      << "// The stubs of the request's space, if it has any.\n"
      << "void reach_space(Probe& probe) {\n"
      << "  const int32_t space = lookup_exact(kSpaces, probe.flow_id());\n"
      << "  if (space >= 0) kSpaceReach[space](probe);\n}\n\n";
  return out.str();
}

std::string Emitter::run(const std::vector<ir::Stub>& stubs, std::string_view stem, int port,
                         std::string_view label, const std::string& symbol) {
  const std::string dispatch = scope_dispatch(tree_, "", "");
  const std::string space_functions = spaces();

  const std::string scope = options_.unit_namespace.empty() ? "" : options_.unit_namespace + "::";
  std::ostringstream out;
  char fingerprint[32];
  std::snprintf(fingerprint, sizeof fingerprint, "0x%016" PRIx64 "ull",
                compiled::fingerprint(stubs));
  out << "// Generated by riftc from " << comment_text(label) << " (" << stubs.size()
      << " stubs). Do not edit: re-run riftc.\n"
      << "//\n"
      << "// The imposter's decision tree (see docs/planner.md): reach() finds every leaf the\n"
      << "// request can reach by method, path and exact field values; the runtime merges those\n"
      << "// leaves in stub order and runs each candidate's residual predicates, so the first\n"
      << "// stub that passes is the one Mountebank would answer with.\n"
      << (options_.includes ? "#include <string>\n#include <string_view>\n\n"
                              "#include \"codegen/compiled_module.h\"\n\n"
                            : "")
      << "namespace " << options_.unit_namespace << (options_.unit_namespace.empty() ? "" : " ")
      << "{\n\nusing namespace rift::compiled;\n\n";

  out << "// Every leaf's candidates, in ascending stub order: {stub, first residual, count}.\n"
      << "const CandidateEntry kCandidates[] = {\n"
      << candidates_.str() << "    {0, 0, 0},  // end\n};\n\n";
  out << "// Residual predicates, as indexes into the plan's predicate list.\n"
      << "const int32_t kResiduals[] = {";
  for (size_t i = 0; i < residuals_.size(); ++i) {
    out << (i % 16 == 0 ? "\n    " : " ") << residuals_[i] << ",";
  }
  out << "\n    -1,  // end\n};\n\n";
  out << "// Leaves: runs of kCandidates.\nconst LeafRange kLeaves[] = {\n"
      << leaves_.str() << "    {0, 0},  // end\n};\n\n";

  out << value_tables_.str();
  out << "// Exact-value routing inside a cell (ValueIndex, compiled_module.h).\n"
      << "[[maybe_unused]] const ValueIndex kIndexes[] = {\n"
      << indexes_.str() << "    {0, \"\", 0, nullptr},  // end\n};\n\n";
  out << "// Cells: what one (method, path key) pair files, {rest leaf, first index, count}.\n"
      << "const Cell kCells[] = {\n"
      << cells_.str() << "    {-1, 0, 0},  // end\n};\n\n";
  out << "[[maybe_unused]] void reach_cell(Probe& probe, int32_t cell) {\n"
      << "  reach_cell_of(probe, kCells, kIndexes, cell);\n}\n\n";
  out << paths_.str() << methods_.str() << space_functions;
  out << "void reach(Probe& probe) {\n"
      << dispatch << (space_functions.empty() ? "" : "  reach_space(probe);\n") << "}\n\n"
      << "}  // namespace " << options_.unit_namespace << "\n\n"
      << "extern const rift::compiled::Module " << symbol << ";\n"
      << "const rift::compiled::Module " << symbol << " = {\n"
      << "    rift::compiled::kAbiVersion, " << cpp_string(stem) << ", " << port << ", "
      << fingerprint << ", " << stubs.size() << ", &" << scope << "reach,\n"
      << "    " << scope << "kCandidates, " << scope << "kResiduals, " << scope << "kLeaves, "
      << leaf_count_ << ",\n};\n";
  return out.str();
}

}  // namespace

EmittedMatcher emit_matcher(const plan::Tree& tree, const std::vector<ir::Stub>& stubs,
                            std::string_view stem, int port, std::string_view label,
                            const EmitOptions& options) {
  EmittedMatcher emitted;
  emitted.stem = std::string(stem);
  emitted.symbol = "kModule_" + identifier(stem);
  Emitter emitter(tree, options);
  emitted.source = emitter.run(stubs, stem, port, label, emitted.symbol);
  emitted.uses_re2c = emitter.uses_re2c();
  return emitted;
}

}  // namespace rift::codegen
