// The generators themselves: the grammar must reach every operator and modifier, requests must
// both hit and miss, and shrinking must reduce a disagreement to its core.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "compiler/plan.h"
#include "compiler/predicate_value.h"
#include "tests/equivalence/reference_scan.h"
#include "tests/equivalence/shrink.h"
#include "tests/equivalence/stub_grammar.h"

namespace rift::equivalence {
namespace {

void collect(const ir::Predicate& predicate, std::set<std::string>& seen) {
  seen.insert(ir::op_name(predicate.op));
  if (predicate.case_sensitive) seen.insert("caseSensitive");
  if (!predicate.except.empty()) seen.insert("except");
  if (predicate.jsonpath) seen.insert("jsonpath");
  if (predicate.xpath) seen.insert(predicate.xpath->ns.empty() ? "xpath" : "xpath+ns");
  if (predicate.fields.size() > 1) seen.insert("several fields");
  for (const auto& [key, value] : predicate.fields.items()) {
    const std::string name = js::lower(key);
    seen.insert("field " + name);
    if (key != name) seen.insert("mixed-case field name");
    if (name == "body") {
      if (value.is_object()) seen.insert("json object body");
      if (value.is_array()) seen.insert("json array body");
      if (value.is_string() && value.get<std::string>().starts_with("<")) seen.insert("xml body");
    }
    if (name == "query" && value.is_object()) {
      for (const auto& [k, v] : value.items()) {
        if (v.is_array()) seen.insert("repeated query key");
      }
    }
  }
  for (const auto& child : predicate.children) collect(child, seen);
}

TEST(EquivalenceGrammar, CoversEveryOperatorAndModifier) {
  StubGrammar grammar(7);
  std::set<std::string> seen;
  for (const auto& stub : grammar.stubs(3000)) {
    if (stub.predicates.empty()) seen.insert("no predicates");
    for (const auto& predicate : stub.predicates) collect(predicate, seen);
  }
  for (const char* expected : {"equals",
                               "deepEquals",
                               "contains",
                               "startsWith",
                               "endsWith",
                               "matches",
                               "exists",
                               "not",
                               "or",
                               "and",
                               "caseSensitive",
                               "except",
                               "jsonpath",
                               "xpath",
                               "xpath+ns",
                               "field method",
                               "field path",
                               "field query",
                               "field headers",
                               "field body",
                               "field form",
                               "several fields",
                               "mixed-case field name",
                               "json object body",
                               "json array body",
                               "xml body",
                               "repeated query key",
                               "no predicates",
                               "inject"}) {
    EXPECT_TRUE(seen.contains(expected)) << expected;
  }
}

// The planner must see every dispatch source often, or the tester checks little of it.
TEST(EquivalenceGrammar, ExercisesEveryDispatchSource) {
  StubGrammar grammar(11);
  std::map<std::string, size_t> filed;
  size_t total = 0;
  for (int list = 0; list < 200; ++list) {
    const auto stubs = grammar.stubs(15);
    auto built = plan::build(stubs);
    if (built.index() != 0) continue;  // a creation error
    for (const auto& keys : std::get<0>(built)->stub_keys) {
      ++total;
      if (keys.method) ++filed["method"];
      if (keys.path) ++filed["path"];
      if (keys.prefix) ++filed["prefix"];
      if (keys.value) ++filed[plan::field_name(keys.value->field)];
      if (keys.value && keys.value->key.starts_with("$.") &&
          keys.value->key.find_first_of(".[", 2) == std::string::npos) {
        ++filed["body member"];
      }
    }
  }
  std::cout << "of " << total << " stubs:";
  for (const auto& [source, count] : filed) std::cout << " " << source << " " << count;
  std::cout << "\n";
  for (const char* source :
       {"method", "path", "prefix", "query", "headers", "body", "body member"}) {
    EXPECT_GT(filed[source], total / 50) << source;
  }
}

TEST(EquivalenceGrammar, RequestsBothHitAndMiss) {
  uint64_t matched = 0;
  uint64_t none = 0;
  uint64_t later = 0;  // answered by a stub other than the first: overlap at work
  uint64_t total = 0;
  for (uint64_t list = 0; list < 300; ++list) {
    StubGrammar grammar(1000 + list);
    const auto stubs = grammar.stubs(1 + static_cast<int>(list % 15));
    const ReferenceScan reference(stubs);
    for (int r = 0; r < 20; ++r) {
      const Answer answer = reference.answer(grammar.request(stubs));
      ++total;
      if (answer.creation_error || answer.evaluation_error) continue;
      if (answer.stub == kNoMatch) {
        ++none;
      } else {
        ++matched;
        if (answer.stub > 0) ++later;
      }
    }
  }
  std::cout << matched << " matched, " << none << " matched none, " << later
            << " matched a stub after the first, of " << total << "\n";
  EXPECT_GT(matched, total / 4);
  EXPECT_GT(none, total / 10);
  EXPECT_GT(later, total / 10);
}

// A deliberately wrong tier: never matches. Shrinking must leave one stub without predicates
// (the smallest list that matches anything) and a request stripped of everything optional.
class NeverMatches final : public Matcher {
 public:
  int match(RequestContext&) const override { return kNoMatch; }
  const char* tier() const override { return "never"; }
};

TEST(EquivalenceShrink, ReducesADisagreementToItsCore) {
  const Tier never{"never", [](const std::vector<ir::Stub>&) -> Built {
                     return std::make_unique<NeverMatches>();
                   }};
  StubGrammar grammar(99);
  Case c{grammar.stubs(12), {}};
  ir::Stub catch_all;
  catch_all.responses.push_back(ir::Response{});
  c.stubs.push_back(catch_all);
  c.request = grammar.request(c.stubs);
  c.request.query = {{"q", "1"}};
  c.request.headers = {{"Accept", "a"}};
  ASSERT_TRUE(disagrees(never, c));
  const Case minimal = shrink(never, c);
  ASSERT_EQ(minimal.stubs.size(), 1u);
  EXPECT_TRUE(minimal.stubs[0].predicates.empty());
  EXPECT_TRUE(minimal.request.query.empty());
  EXPECT_TRUE(minimal.request.headers.empty());
  const std::string text = reproduction(never, minimal);
  EXPECT_NE(text.find("\"reference\": \"stub 0\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"never\": \"no match\""), std::string::npos) << text;
}

}  // namespace
}  // namespace rift::equivalence
