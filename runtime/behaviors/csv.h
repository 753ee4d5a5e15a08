// The CSV reading of the `lookup` behavior: what Mountebank's csv-parse (5.x, default options)
// yields for a data source file (docs/mountebank-semantics.md §6.2, Lookup).
//
// The first record is the header. Fields may be quoted with `"` (`""` inside is one quote) and
// then contain the delimiter or line breaks; nothing is trimmed. The record delimiter is the
// first of `\r\n`, `\n` or `\r` met outside quotes, and only that one ends records afterwards.
// csv-parse stops at the first malformed record (a stray quote, an unclosed quote, a record whose
// field count differs from the first); Mountebank has by then already used every row before it,
// so the table keeps those rows and drops the rest.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rift::behaviors {

struct CsvTable {
  std::vector<std::vector<std::string>> records;  // records[0] is the header, when present
};

// Parses `text` with `delimiter` (any non-empty string; Mountebank uses "," when it is empty).
CsvTable parse_csv(std::string_view text, std::string_view delimiter);

// One row as Mountebank's lookup builds it: header name -> cell, in header order; a repeated
// header name keeps its first position and its last cell.
using CsvRow = std::vector<std::pair<std::string, std::string>>;

// The first row whose `key_column` cell equals `key`. nullopt when the header has no such
// column or no row matches.
std::optional<CsvRow> find_row(const CsvTable& table, std::string_view key_column,
                               std::string_view key);

}  // namespace rift::behaviors
