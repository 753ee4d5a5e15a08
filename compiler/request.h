// The request as Mountebank's predicates, journal and behaviors see it
// (docs/mountebank-semantics.md §3).
//
// The runtime fills this from the wire; predicates read it. Multi-valued keys stay as ordered
// pairs here; `to_json` groups them into Mountebank's arrays only when something needs the JSON
// form (journal, residual predicates, explain).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "compiler/ir.h"

namespace rift {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

// For builders that refill pairs in place, request after request: the i-th pair (i <= size),
// keeping the strings a previous request left there so their capacity is reused. Assign both
// members, then trim the vector to the count filled.
inline std::pair<std::string, std::string>& reuse_slot(KeyValues& pairs, size_t i) {
  if (i == pairs.size()) pairs.emplace_back();
  return pairs[i];
}

// Which request model a Request follows: Mountebank's http one, its tcp one
// ({requestFrom, ip, data}; docs/tcp.md), or its smtp one (docs/smtp.md), which is only ever
// journaled: `body` holds the entry's JSON text.
enum class Protocol : uint8_t { kHttp, kTcp, kSmtp };

// The request model of an imposter's `protocol` ("tcp"; http, https and smtp use http's).
inline Protocol request_protocol(std::string_view imposter_protocol) {
  return imposter_protocol == "tcp" ? Protocol::kTcp : Protocol::kHttp;
}

struct Request {
  Protocol protocol = Protocol::kHttp;
  // tcp: `path` holds the text `data` predicates compare and the planner dispatches on (the
  // data itself in text mode; in binary mode its bytes decoded as UTF-8, as Mountebank decodes
  // both sides before comparing) and `body` the data as the journal and scripts see it (text,
  // or base64 in binary mode). method, query, headers and form stay empty.
  std::string method;                               // upper case, as parsed
  std::string path;                                 // normalized, no query
  KeyValues query;                                  // percent-decoded, '+' as space, in order
  KeyValues headers;                                // names exactly as sent, in order
  std::optional<std::string> body = std::string();  // nullopt: decompression failed
  std::optional<KeyValues> form;                    // only for a urlencoded, non-empty body
  std::string request_from;                         // "<addr>:<port>"
  std::string ip;
  // The request's flow id (docs/spaces.md): which space's stubs it sees. Set by the server from
  // the imposter's flowIdSource; not part of Mountebank's request model (to_json).
  std::string flow_id;
};

// The value of the first pair whose key equals `name` ignoring ASCII case (HTTP header names),
// or null.
const std::string* find_ignoring_case(const KeyValues& pairs, std::string_view name);

// {"requestFrom", "method", "path", "query", "headers", "body", "ip", "form"?}; for tcp
// {"requestFrom", "ip", "data"}, data as the journal shows it.
ir::Json to_json(const Request& request);

// What predicates read when they read the request's JSON form: to_json, except that a tcp
// request's `data` is the text its predicates compare (decoded in binary mode).
ir::Json predicate_json(const Request& request);

// Groups repeated keys into ordered arrays, Mountebank style: {"a": ["1", "2"], "b": ""}.
ir::Json group_key_values(const KeyValues& pairs);

}  // namespace rift
