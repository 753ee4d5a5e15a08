#include "runtime/behaviors/csv.h"

#include <algorithm>

namespace rift::behaviors {
namespace {

class CsvParser {
 public:
  CsvParser(std::string_view text, std::string_view delimiter)
      : text_(text), delimiter_(delimiter.empty() ? std::string_view(",") : delimiter) {}

  CsvTable parse() {
    while (pos_ < text_.size()) {
      if (!parse_field()) return std::move(table_);
      if (at_delimiter()) {
        pos_ += delimiter_.size();
        // A delimiter at the very end still opens one more (empty) field.
        if (pos_ == text_.size()) record_.emplace_back();
        continue;
      }
      // A record delimiter or the end of the text closes the record.
      if (!end_record()) return std::move(table_);
      skip_record_delimiter();
    }
    if (in_record_) end_record();
    return std::move(table_);
  }

 private:
  // Reads one field into `record_`. False on a malformed field (parsing stops there).
  bool parse_field() {
    std::string field;
    in_record_ = true;
    if (text_[pos_] == '"') {
      ++pos_;
      while (true) {
        if (pos_ >= text_.size()) return false;  // CSV_QUOTE_NOT_CLOSED
        const char c = text_[pos_];
        if (c != '"') {
          field += c;
          ++pos_;
          continue;
        }
        if (pos_ + 1 < text_.size() && text_[pos_ + 1] == '"') {
          field += '"';
          pos_ += 2;
          continue;
        }
        ++pos_;
        // A closing quote must end the field: CSV_INVALID_CLOSING_QUOTE otherwise.
        if (pos_ < text_.size() && !at_delimiter() && !at_record_delimiter()) return false;
        break;
      }
    } else {
      while (pos_ < text_.size() && !at_delimiter() && !at_record_delimiter()) {
        if (text_[pos_] == '"') return false;  // INVALID_OPENING_QUOTE
        field += text_[pos_++];
      }
    }
    record_.push_back(std::move(field));
    return true;
  }

  bool at_delimiter() const { return text_.substr(pos_).starts_with(delimiter_); }

  // Before the record delimiter is known, any line break outside quotes decides it.
  bool at_record_delimiter() {
    if (pos_ >= text_.size()) return false;
    if (record_delimiter_.empty()) {
      if (text_.substr(pos_).starts_with("\r\n")) {
        record_delimiter_ = "\r\n";
      } else if (text_[pos_] == '\n') {
        record_delimiter_ = "\n";
      } else if (text_[pos_] == '\r') {
        record_delimiter_ = "\r";
      } else {
        return false;
      }
      return true;
    }
    return text_.substr(pos_).starts_with(record_delimiter_);
  }

  void skip_record_delimiter() {
    if (at_record_delimiter()) pos_ += record_delimiter_.size();
  }

  // False when the record's field count differs from the header's
  // (CSV_RECORD_INCONSISTENT_FIELDS_LENGTH).
  bool end_record() {
    in_record_ = false;
    if (!table_.records.empty() && record_.size() != table_.records.front().size()) return false;
    table_.records.push_back(std::move(record_));
    record_.clear();
    return true;
  }

  std::string_view text_;
  std::string_view delimiter_;
  std::string record_delimiter_;
  size_t pos_ = 0;
  bool in_record_ = false;
  std::vector<std::string> record_;
  CsvTable table_;
};

}  // namespace

CsvTable parse_csv(std::string_view text, std::string_view delimiter) {
  return CsvParser(text, delimiter).parse();
}

std::optional<CsvRow> find_row(const CsvTable& table, std::string_view key_column,
                               std::string_view key) {
  if (table.records.empty()) return std::nullopt;
  const auto& header = table.records.front();
  // Mountebank reads row[keyColumn] from an object keyed by header name: the last column of
  // that name wins.
  const auto named = std::find(header.rbegin(), header.rend(), key_column);
  if (named == header.rend()) return std::nullopt;
  const size_t column = static_cast<size_t>(header.rend() - named) - 1;
  for (size_t r = 1; r < table.records.size(); ++r) {
    const auto& record = table.records[r];
    if (record[column] != key) continue;
    CsvRow row;
    for (size_t i = 0; i < header.size(); ++i) {
      auto existing = std::find_if(row.begin(), row.end(),
                                   [&](const auto& cell) { return cell.first == header[i]; });
      if (existing != row.end()) {
        existing->second = record[i];
      } else {
        row.emplace_back(header[i], record[i]);
      }
    }
    return row;
  }
  return std::nullopt;
}

}  // namespace rift::behaviors
