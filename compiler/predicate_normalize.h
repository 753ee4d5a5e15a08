// The request-independent and request-side transforms of docs/mountebank-semantics.md §4.2: case
// folding, `except`, "string actual parsed as JSON", forceStrings and deepEquals canonical forms.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/ir.h"
#include "compiler/jsonpath.h"
#include "compiler/regex.h"
#include "compiler/request_cache.h"

namespace rift::predicates {

// How strings and keys are normalized on one side of a predicate.
struct Transform {
  bool lower_keys = false;
  bool lower_values = false;
  std::shared_ptr<const Regex> except;  // null: none

  // lower-case (when asked), then delete `except` matches: Mountebank's compose order.
  std::string apply(std::string text) const;
  std::string key(std::string text) const;
};

// The transform as the per-request caches key it (compiler/predicate_context.h): equal
// transforms give equal keys.
NormalizationKey normalization_key(const Transform& transform);

// An expected value, normalized once at prepare time. Objects and arrays keep their children;
// scalars keep their value, their JavaScript String() form and, for `matches`, the regex.
struct Expected {
  // A member, key first: a struct of its own because std::pair<std::string, Expected> would have
  // to check Expected's constructors inside Expected's own definition (Clang refuses that).
  struct Member;
  enum class Kind { kNull, kBool, kNumber, kString, kObject, kArray };
  Kind kind = Kind::kNull;
  ir::Json value;    // scalars: the normalized value
  std::string text;  // scalars: String(value)
  bool truthy = false;
  std::shared_ptr<const Regex> regex;  // matches only
  std::vector<Member> members;         // objects: keys; arrays: "0", "1", ...
  bool is_object() const { return kind == Kind::kObject || kind == Kind::kArray; }
};
struct Expected::Member {
  std::string first;
  Expected second;
};

// Builds the expected tree. `regex_ignore_case` set means scalars are compiled as `matches`
// patterns; a pattern that does not compile is returned as the error message.
struct ExpectedOptions {
  Transform transform;
  std::optional<bool> regex_ignore_case;
};
std::variant<Expected, std::string> build_expected(const ir::Json& value,
                                                   const ExpectedOptions& options);

// Applies the transform to every key and string of a JSON value (Mountebank's transformAll
// without the array sort).
ir::Json transform_json(const ir::Json& value, const Transform& transform);

// tryJSON: parses `text`, then normalizes keys and string values; nullopt when not JSON.
std::optional<ir::Json> try_json(const std::string& text, const Transform& transform,
                                 jsonpath::JsonParser& parser);

// try_json the plain way, for RequestContext::slow_paths(): nlohmann's parser over the whole
// text (json_stream::parse_plainly), then the transform. Gives what try_json gives.
std::optional<ir::Json> try_json_plainly(const std::string& text, const Transform& transform);

// forceStrings: every scalar becomes its String() form, null becomes "null".
ir::Json force_strings(const ir::Json& value);

// The identity key deepEquals compares (safe-stable-stringify of the normalized value): object
// keys sorted, arrays sorted at the top level and, when `sort_nested`, at every level.
// nullptr (undefined) gives "undefined".
std::string canonical(const ir::Json* value, bool sort_nested);

// Appends `[e1,e2,...]`, the elements' canonical texts sorted first when `sort` says so: how
// canonical() writes an array, shared with json_stream's tape writer.
void append_canonical_array(std::vector<std::string>& elements, bool sort, std::string& out);

}  // namespace rift::predicates
