// Selection for `copy` and `lookup` (docs/mountebank-semantics.md §6.2, Selection): which request
// field a behavior reads (`from`) and what its `using` selector picks out of it.
//
// Mountebank runs this in JavaScript, so values here are JavaScript values turned to text:
// a selected JSON number is "3", an object "[object Object]", and nullopt is `undefined`
// (an unset regex group, or an index past the end).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "compiler/errors.h"
#include "compiler/ir.h"
#include "compiler/jsonpath.h"
#include "compiler/regex.h"
#include "compiler/xpath.h"

namespace rift::behaviors {

using JsText = std::optional<std::string>;
using Selection = std::vector<JsText>;

// Mountebank's getFrom: `from` is a field name matched case-insensitively ("BODY"), or a one-key
// object whose key is matched exactly and whose value selects inside it ({"query": "q"}). An
// array (a repeated query key or header) gives its first element. nullptr is `undefined`.
const ir::Json* select_field(const ir::Json& request, const ir::Json& from);

// `object[name]`, or a null value when `object` is not an object or has no such key (behavior
// configs are validated loosely, as Mountebank's are).
const ir::Json& config_member(const ir::Json& object, const char* name);

// A prepared `using` object: {method: regex|xpath|jsonpath, selector, ns?, options?}. Built once
// per plan; a selector that does not compile fails each request the way Mountebank does.
class Selector {
 public:
  explicit Selector(const ir::Json& using_config);

  // regex: [whole match, group 1, ...] of the first match; xpath: node values in document order;
  // jsonpath: every result. Empty when nothing is selected; an error when a jsonpath selection
  // passes jsonpath::kMaxSelectionWork (docs/limits.md).
  std::variant<Selection, MbError> select(const ir::Json* field) const;

 private:
  Selection select_regex(const ir::Json* field) const;
  std::variant<Selection, MbError> select_xpath(const ir::Json* field) const;
  std::variant<Selection, MbError> select_jsonpath(const ir::Json* field) const;

  std::string method_;
  std::string selector_;
  std::optional<Regex> regex_;
  std::shared_ptr<const xpath::Selector> xpath_;  // shared: xpath::Selector is move-only
  std::optional<jsonpath::Path> jsonpath_;
  std::optional<MbError> compile_error_;
};

}  // namespace rift::behaviors
