// The intercept proxy's rules (rift-extensions §13, docs/intercept.md) read, validated and
// lowered to ordinary Mountebank stubs, so the planner compiles them like any imposter's (every
// tier, no scan of the rules): rule i is stub i, and one last stub answers what no rule claims.
//
// A rule is {host?, predicates?, action: {serve: {statusCode?, headers?, body?}} |
// {forward: {port}}}. `host` is exact or, beyond the reference, a `*.` wildcard matching one or
// more labels; both case-insensitive and matched against the request's Host without its port.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <variant>

#include "compiler/ir.h"

namespace rift::frontends {

// The reference's cap: a store holds at most this many rules; a batch that would pass it is
// refused whole.
inline constexpr size_t kMaxInterceptRules = 10000;

// One rule or an array of them -> the rules as an array, or why one is refused:
// "rules[1]: 'action' must be {\"serve\": {...}} or {\"forward\": {\"port\": N}}".
std::variant<ir::Json, std::string> read_intercept_rules(const ir::Json& value);

// A rule read_intercept_rules accepted -> the stub serving it: its host as a `matches` on the
// Host header ahead of its own predicates, and `serve` as an `is` response or `forward` as a
// transparent proxy to the imposter on 127.0.0.1.
ir::Json intercept_rule_stub(const ir::Json& rule);

// The stub after every rule: the reference's answer to a request no rule claims (200, text,
// naming the method, path and host).
ir::Json intercept_fallback_stub();

}  // namespace rift::frontends
