// An XPath selector with its namespaces and an XML body (compiler/xpath.h), selected as the
// evaluator selects: parsed into libxml2's DOM, and in one SAX pass where the selector streams
// (compiler/xpath_stream.h). The streaming answer must equal the DOM's whenever it answers.
//
// Input: "selector\n%%\nprefix=uri lines\n%%\nbody", or "selector\n%%\nbody" with fixed
// namespaces, or the body alone, read with a fixed set of selectors.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "compiler/xpath.h"
#include "tests/fuzz/fuzz_input.h"

namespace {

using rift::xpath::Result;
using Namespaces = std::map<std::string, std::string>;

constexpr std::array<std::string_view, 12> kSelectors = {
    "//item",
    "//item[@id='2']",
    "//item[@id=\"a&b\"]",
    "/root/item/@id",
    "//a:item",
    "//b:list/b:entry[2]/text()",
    "count(//item)",
    "boolean(//missing)",
    "string(/root)",
    "number(//price) * 2",
    "//*[local-name()='item' and contains(., 'x')]",
    "//comment() | //processing-instruction()",
};

Namespaces fixed_namespaces() {
  return {{"a", "urn:a"}, {"b", "urn:b"}};
}

// One "prefix=uri" per line, as the predicate's `ns` object would bind them.
Namespaces parse_namespaces(std::string_view lines) {
  Namespaces ns;
  while (!lines.empty()) {
    const size_t end = std::min(lines.find('\n'), lines.size());
    const std::string_view line = lines.substr(0, end);
    const size_t equals = line.find('=');
    if (equals != std::string_view::npos) {
      ns[rift::fuzz::valid_utf8(line.substr(0, equals))] =
          rift::fuzz::valid_utf8(line.substr(equals + 1));
    }
    lines.remove_prefix(std::min(end + 1, lines.size()));
  }
  return ns;
}

// Equal as results, NaN equal to itself (number() of text that is not a number).
bool same(const Result& a, const Result& b) {
  const auto* x = std::get_if<double>(&a);
  const auto* y = std::get_if<double>(&b);
  if (x && y && std::isnan(*x) && std::isnan(*y)) return true;
  return a == b;
}

void select_both_ways(const rift::xpath::Selector& selector, std::string_view xml) {
  std::optional<Result> dom;
  try {
    dom = rift::xpath::select(selector, xml);
  } catch (const std::runtime_error&) {
    // An unbound prefix and the like: Mountebank answers 500, so does Rift.
  }
  const std::optional<Result> streamed = selector.select_streaming(xml);
  if (!streamed) return;
  if (!rift::xpath::Document::parse(xml)) {
    rift::fuzz::contract_broken("the SAX pass answered on text the DOM refuses");
  }
  if (!dom || !same(*dom, *streamed)) {
    rift::fuzz::contract_broken("the SAX pass and the DOM select differently");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto parts = rift::fuzz::split_parts(rift::fuzz::as_text(data, size), 3);
  const std::string xml = rift::fuzz::valid_utf8(parts.back());
  std::vector<std::string> expressions;
  if (parts.size() == 1) {
    expressions.assign(kSelectors.begin(), kSelectors.end());
  } else {
    expressions.push_back(rift::fuzz::valid_utf8(parts[0]));
  }
  const Namespaces ns = parts.size() == 3 ? parse_namespaces(parts[1]) : fixed_namespaces();
  for (const auto& expression : expressions) {
    auto compiled = rift::xpath::Selector::compile(expression, ns);
    if (const auto* selector = std::get_if<rift::xpath::Selector>(&compiled)) {
      select_both_ways(*selector, xml);
    }
  }
  return 0;
}
