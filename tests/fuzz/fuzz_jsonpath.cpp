// A JSONPath selector (the JSONPath-Plus dialect, compiler/jsonpath.h) and a body, selected the
// ways the evaluator selects: on the tree simdjson parses, on the tree the slow paths parse, and
// from the node the streaming walk (compiler/json_stream.h) reaches by the leading names.
//
// Input: "selector\n%%\nbody". Without a separator the whole input is the body, read with a
// fixed set of selectors covering every step kind and filters.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "compiler/json_stream.h"
#include "compiler/jsonpath.h"
#include "tests/fuzz/fuzz_input.h"

namespace {

constexpr std::array<std::string_view, 14> kSelectors = {
    "$",
    "$.name",
    "$.a.b.c",
    "$['key with space'][0]",
    "$..id",
    "$.items[*].price",
    "$.items[-1:]",
    "$.items[0:10:2]",
    "$.items.length",
    "$.*",
    "$.a[0,2]",
    "$.items[?(@.price > 10 && @.tag == 'x')].name",
    "$..[?(!@.deleted || @.n === null)]",
    "$.items[?((@.a != 'b') || (@.c <= 2.5e1))]",
};

void select_every_way(const rift::jsonpath::Path& path, const std::string& body,
                      const std::optional<rift::ir::Json>& tree,
                      const std::optional<rift::ir::Json>& plain_tree) {
  if (tree) (void)path.select(*tree);
  if (plain_tree) (void)path.select(*plain_tree);
  static const rift::predicates::Transform kAsIs;
  static const rift::predicates::Transform kLowered{.lower_keys = true, .lower_values = true};
  for (const auto* transform : {&kAsIs, &kLowered}) {
    const auto walk = rift::json_stream::walk(body, path.leading_names(), *transform);
    if (walk.outcome == rift::json_stream::Outcome::kRead && walk.node) {
      (void)path.select_from(*walk.node, walk.consumed);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto parts = rift::fuzz::split_parts(rift::fuzz::as_text(data, size), 2);
  const std::string body = rift::fuzz::valid_utf8(parts.back());
  const auto tree = rift::jsonpath::parse_json(body);
  const auto plain_tree = rift::json_stream::parse_plainly(body);
  std::vector<std::string> selectors;
  if (parts.size() == 2) {
    selectors.push_back(rift::fuzz::valid_utf8(parts[0]));
  } else {
    selectors.assign(kSelectors.begin(), kSelectors.end());
  }
  for (const auto& selector : selectors) {
    auto parsed = rift::jsonpath::Path::parse(selector);
    if (const auto* path = std::get_if<rift::jsonpath::Path>(&parsed)) {
      select_every_way(*path, body, tree, plain_tree);
    }
  }
  return 0;
}
