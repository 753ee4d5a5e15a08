// Reading a JSON request body through the thread's simdjson parser without building the whole
// nlohmann tree (docs/mountebank-semantics.md §4.3 "string actual parsed as JSON", §4.7 jsonpath);
// and the one conversion of simdjson values into ir::Json, which parse_nlohmann also serves to
// the admin API.
//
// simdjson parses into a flat tape held by one parser per thread, reused across requests; only
// the values a predicate reads are converted to ir::Json. Results equal what
// predicates::try_json followed by a lookup on the whole tree gives: duplicate keys keep the last
// value, numbers are doubles, keys and strings are normalized by the predicate's transform.
// Texts simdjson cannot read exactly (integers beyond 64 bits) come back as kUnsupported so that
// callers take the tree path, which handles them. A text nested deeper than nesting::kMaxDepth
// (compiler/nesting.h) is not JSON, on this path and on every fallback alike.
//
// The whole text is validated (simdjson's DOM parser), not just the part read: JSON.parse rejects
// a body with a syntax error after the selected value, so a predicate must see "not JSON" there.
// That is why the on-demand API, which leaves unread values unchecked, is not used.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/ir.h"
#include "compiler/predicate_normalize.h"

namespace rift::json_stream {

enum class Outcome {
  kRead,         // the text is JSON and the result below holds
  kNotJson,      // JSON.parse would throw
  kUnsupported,  // use the tree path (predicates::try_json)
};

// JSON.parse(text) in full, through the thread's parser (jsonpath::JsonParser's engine).
// nullopt when the text is not JSON.
std::optional<ir::Json> parse(std::string_view text);

// The same tree ir::Json::parse(text, nullptr, false) builds, parsed with simdjson (a
// 10,000-stub imposter is megabytes of JSON, and nlohmann's own lexer was an eighth of its POST):
// non-negative integers unsigned, negative ones signed, everything else a double; a repeated key
// keeps its first place and its last value ("-0" alone comes out unsigned, not signed: same
// value and text). Discarded when the text is not JSON (one holding a NUL byte included, which
// nlohmann's lexer would take for the end of the text) or nests deeper than nesting::kMaxDepth.
// Texts simdjson refuses (integers beyond 64 bits, a byte-order mark) are left to nlohmann. Each
// call parses with a parser of its own, not the thread's.
ir::Json parse_nlohmann(std::string_view text);

// JSON.parse(text) the plain way, without simdjson: nlohmann's parser over the whole text,
// every number then a double, a leading byte order mark refused as JSON.parse refuses it. What
// parse() falls back to for texts simdjson cannot read exactly, and the parser of the evaluator's
// slow paths (RequestContext::slow_paths()).
std::optional<ir::Json> parse_plainly(std::string_view text);

// The node a chain of property names reaches from the root (a jsonpath's leading `.name` steps).
// The walk goes down objects (by normalized key) and arrays (by canonical index) and stops early
// at a scalar, at a string, or at an array asked for `length`, so that the caller evaluates the
// remaining names on the returned node exactly as the tree path would.
struct Walk {
  Outcome outcome = Outcome::kUnsupported;
  bool root_is_string = false;   // the document is a JSON string (selects nothing)
  std::optional<ir::Json> node;  // normalized; nullopt: a name was missing
  std::size_t consumed = 0;      // names followed to reach `node`
};
Walk walk(std::string_view text, const std::vector<std::string>& names,
          const predicates::Transform& transform);

// The members `keys` name in a JSON object text, normalized. kUnsupported also when the
// document is not an object (arrays and scalars have their own rules in the evaluator).
struct Members {
  Outcome outcome = Outcome::kUnsupported;
  std::vector<std::optional<ir::Json>> values;  // per key; nullopt: no such member
};
Members members(std::string_view text, const std::vector<std::string>& keys,
                const predicates::Transform& transform);

// deepEquals' identity key of a JSON text: predicates::canonical(&v, true) where v is
// transform_json(force_strings(try_json(text))), written straight from the tape.
struct Canonical {
  Outcome outcome = Outcome::kUnsupported;
  std::string text;
};
Canonical forced_canonical(std::string_view text, const predicates::Transform& transform);

}  // namespace rift::json_stream
