#include "runtime/admin/events.h"

#include <charconv>
#include <string>

#include "runtime/admin/journal_filter.h"

namespace rift::admin {
namespace {

constexpr std::string_view kPrefix = "/imposters/";
constexpr std::string_view kSuffix = "/savedRequests/stream";

// The port of the alias path, or unset when `path` is not one.
std::optional<std::string_view> alias_port(std::string_view path) {
  if (!path.starts_with(kPrefix) || !path.ends_with(kSuffix)) return std::nullopt;
  if (path.size() <= kPrefix.size() + kSuffix.size()) return std::nullopt;
  const std::string_view port =
      path.substr(kPrefix.size(), path.size() - kPrefix.size() - kSuffix.size());
  if (port.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
  return port;
}

// A u16 as Rust's str::parse reads one: an optional '+', then decimal digits.
std::optional<int> port_number(std::string_view text) {
  if (text.starts_with('+')) text.remove_prefix(1);
  if (text.empty() || text.front() == '+' || text.front() == '-') return std::nullopt;
  unsigned value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value > 65535) {
    return std::nullopt;
  }
  return static_cast<int>(value);
}

AdminReply refusal(int status, const std::string& message) {
  return AdminReply{status, "application/json", ir::Json{{"error", message}}.dump(), {}};
}

// ?types= and ?port=, read raw (no %-decoding) as the reference reads them; each `types`
// starts over, the last `port` counts.
std::optional<AdminReply> read_parameters(std::string_view query, events::Interest& interest) {
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (pair.empty()) continue;
    const size_t equals = pair.find('=');
    const std::string_view key = pair.substr(0, equals);
    const std::string_view value =
        equals == std::string_view::npos ? std::string_view() : pair.substr(equals + 1);
    if (key == "types") {
      interest.requests = interest.lifecycle = false;
      std::string_view list = value;
      while (!list.empty()) {
        const size_t comma = list.find(',');
        const std::string_view type = list.substr(0, comma);
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
        if (type.empty()) continue;
        if (type == "requests") {
          interest.requests = true;
        } else if (type == "lifecycle") {
          interest.lifecycle = true;
        } else {
          return refusal(
              400, "unknown types value '" + std::string(type) + "' (expected requests|lifecycle)");
        }
      }
    } else if (key == "port") {
      interest.port = port_number(value);
      if (!interest.port) return refusal(400, "invalid port: " + std::string(value));
    }
  }
  return std::nullopt;
}

}  // namespace

bool is_event_stream(std::string_view path) {
  return path == "/events" || alias_port(path).has_value();
}

std::variant<std::shared_ptr<events::EventStream>, AdminReply> open_event_stream(AdminState& state,
                                                                                 const Call& call) {
  events::Interest interest;
  auto filter = journal_filter(call.queries("match"));
  if (auto* error = std::get_if<MbError>(&filter)) return refusal(400, error->message);
  interest.match = std::get<JournalFilter>(std::move(filter));
  if (const auto alias = alias_port(call.path())) {
    // Requests only, of the imposter in the path; ?types and ?port are not read.
    interest.lifecycle = false;
    interest.port = port_number(*alias);
    if (!interest.port) return refusal(404, "no imposter on port " + std::string(*alias));
  } else if (auto refused = read_parameters(call.raw_query(), interest)) {
    return *std::move(refused);
  }
  if (interest.port && !state.registry.find(*interest.port)) {
    return refusal(404, "no imposter on port " + std::to_string(*interest.port));
  }
  if (!state.events) return refusal(503, "the event stream is not available in this process");
  return std::make_shared<events::EventStream>(state.events, std::move(interest));
}

}  // namespace rift::admin
