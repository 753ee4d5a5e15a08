// What a predicate demands of every request it matches: the planner's dispatch facts (v2).
//
// A fact is a *necessary* condition of the predicate, stated the way the tree's tables compare
// (ASCII case-folded): a method, an exact path, a path prefix, or one exact query / header /
// body-field value. Filing a stub under a fact can therefore only skip it for requests it could
// never match. A predicate is `decidable` when its facts are also sufficient: it holds exactly
// when the request has them, so once the stub is filed under all of them it needs no check.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/ir.h"
#include "compiler/plan.h"
#include "compiler/request.h"

namespace rift::plan {

struct Facts {
  size_t predicate = 0;                  // the stub's top-level predicate the facts come from
  std::optional<std::string> method;     // upper-cased
  std::optional<std::string> path;       // exact path, folded
  std::optional<std::string> prefix;     // path prefix, folded
  std::optional<std::string> substring;  // a literal the path contains, folded
  std::optional<Tree::StubKeys::Value> value;
  bool decidable = false;
};

// The facts of a stub's predicates in order: one entry per field predicate, and the children of
// an `and` in place (never decidable: the `and` stays a check). Stops at the first predicate
// that may throw (xpath, inject): Mountebank evaluates a stub's predicates in order, so skipping
// the stub on a later fact would turn its 500 into a quiet no-match. For tcp, the facts of
// `data` are stated as path facts (a tcp request dispatches on its data in Request::path).
std::vector<Facts> stub_facts(const std::vector<ir::Predicate>& predicates,
                              Protocol protocol = Protocol::kHttp);

// A JSON member name that no property lookup on an array treats specially (not an index, not
// "length"). Only such names become `$.name` selectors, whose request values include what
// `equals {body: {name: ...}}` compares through a JSON array body (see request_values).
bool plain_identifier(std::string_view name);

}  // namespace rift::plan
