#include "runtime/admin/journal_filter.h"

#include <charconv>
#include <string>

#include "compiler/ascii.h"
#include "runtime/admin/path_segment.h"

namespace rift::admin {
namespace {

constexpr std::string_view kExpected =
    "expected header:<Name>=<Value>, flow_id=<Value>, method=<Verb> or path=<Path>";

// One clause as a predicate on a request; the reference's messages for the bad ones.
std::variant<JournalFilter, MbError> clause_filter(std::string_view clause) {
  const std::string quoted = "'" + std::string(clause) + "'";
  if (clause.starts_with("header:")) {
    const std::string_view rest = clause.substr(7);
    const size_t equals = rest.find('=');
    if (equals == std::string_view::npos) {
      return bad_data("invalid match clause " + quoted + " (expected header:<Name>=<Value>)");
    }
    if (equals == 0) return bad_data("invalid match clause " + quoted + " (empty header name)");
    return JournalFilter([name = std::string(rest.substr(0, equals)),
                          value = std::string(rest.substr(equals + 1))](const Request& request) {
      for (const auto& [header, given] : request.headers) {
        if (ascii::iequals(header, name) && given == value) return true;
      }
      return false;
    });
  }
  const size_t equals = clause.find('=');
  const std::string_view key = clause.substr(0, equals);
  if (equals != std::string_view::npos) {
    std::string value(clause.substr(equals + 1));
    if (key == "flow_id") {
      return JournalFilter([value](const Request& request) { return request.flow_id == value; });
    }
    if (key == "method") {
      return JournalFilter([value](const Request& request) { return request.method == value; });
    }
    if (key == "path") {
      return JournalFilter([value](const Request& request) { return request.path == value; });
    }
  }
  return bad_data("unsupported match clause " + quoted + " (" + std::string(kExpected) + ")");
}

}  // namespace

std::variant<JournalFilter, MbError> journal_filter(const std::vector<std::string_view>& clauses) {
  std::vector<JournalFilter> filters;
  for (std::string_view clause : clauses) {
    auto filter = clause_filter(clause);
    if (auto* error = std::get_if<MbError>(&filter)) return *error;
    filters.push_back(std::get<JournalFilter>(std::move(filter)));
  }
  if (filters.empty()) return JournalFilter();
  return JournalFilter([filters = std::move(filters)](const Request& request) {
    for (const auto& filter : filters) {
      if (!filter(request)) return false;
    }
    return true;
  });
}

std::variant<std::optional<uint64_t>, MbError> journal_cursor(std::string_view raw_query) {
  std::optional<uint64_t> since;
  while (!raw_query.empty()) {
    const size_t amp = raw_query.find('&');
    const std::string_view pair = raw_query.substr(0, amp);
    raw_query = amp == std::string_view::npos ? std::string_view() : raw_query.substr(amp + 1);
    const size_t equals = pair.find('=');
    if (equals == std::string_view::npos || pair.substr(0, equals) != "since") continue;
    const std::string_view raw = pair.substr(equals + 1);
    auto decoded = decoded_segment(raw, "since cursor");
    const std::string text = std::holds_alternative<std::string>(decoded)
                                 ? std::get<std::string>(decoded)
                                 : std::string(raw);
    // Digits, an optional leading '+' and leading zeros, as the reference reads a u64.
    const std::string_view digits = std::string_view(text).starts_with('+')
                                        ? std::string_view(text).substr(1)
                                        : std::string_view(text);
    uint64_t value = 0;
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (digits.empty() || digits.front() == '-' || error != std::errc() ||
        end != digits.data() + digits.size()) {
      return bad_data("invalid since cursor '" + text + "' (expected a non-negative integer)");
    }
    since = value;
  }
  return since;
}

}  // namespace rift::admin
