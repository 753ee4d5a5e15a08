#include "compiler/ir.h"

#include <array>
#include <utility>

namespace rift::ir {
namespace {
constexpr std::array<std::pair<Op, const char*>, 11> kOpNames = {{
    {Op::kEquals, "equals"},
    {Op::kDeepEquals, "deepEquals"},
    {Op::kContains, "contains"},
    {Op::kStartsWith, "startsWith"},
    {Op::kEndsWith, "endsWith"},
    {Op::kMatches, "matches"},
    {Op::kExists, "exists"},
    {Op::kNot, "not"},
    {Op::kOr, "or"},
    {Op::kAnd, "and"},
    {Op::kInject, "inject"},
}};
}  // namespace

const char* op_name(Op op) {
  if (op == Op::kScenario) return "scenario";  // not a name users may write (op_from_name)
  for (const auto& [candidate, name] : kOpNames) {
    if (candidate == op) return name;
  }
  return "?";
}

std::optional<Op> op_from_name(const std::string& name) {
  for (const auto& [op, candidate] : kOpNames) {
    if (name == candidate) return op;
  }
  return std::nullopt;
}

}  // namespace rift::ir
