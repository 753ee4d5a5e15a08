// savedRequests?match=<clause> (docs/journal.md): which recorded requests a GET or DELETE of the
// journal means. Every clause must hold; no clause selects every request.
//   header:<Name>=<Value>  some value of that header (name ignoring case) is exactly Value
//   flow_id=<Value>        the request's flow id (docs/spaces.md) is exactly Value
//   method=<Verb>          the method is exactly Verb
//   path=<Path>            the path, without its query, is exactly Path
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>
#include <vector>

#include "compiler/errors.h"
#include "runtime/imposter/request_journal.h"

namespace rift::admin {

// The filter of `clauses` (already percent-decoded), or the 400 error naming the first bad one.
// An empty list gives an unset filter: the whole journal.
std::variant<JournalFilter, MbError> journal_filter(const std::vector<std::string_view>& clauses);

// savedRequests?since=<index>: only requests recorded after that index (docs/journal.md), read
// from the raw query as the reference reads it: a `since` without '=' is no cursor, values are
// %-decoded ('+' stays '+'), each must be a non-negative integer (else the 400 error), the last
// counts; none: unset.
std::variant<std::optional<uint64_t>, MbError> journal_cursor(std::string_view raw_query);

}  // namespace rift::admin
