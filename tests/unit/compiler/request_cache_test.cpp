#include "compiler/request_cache.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "compiler/plan.h"
#include "compiler/predicate_context.h"
#include "compiler/request.h"

namespace rift {
namespace {

FieldKey key(std::string field) {
  FieldKey out;
  out.field = std::move(field);
  return out;
}

TEST(RequestCache, AnEntryIsFilledOncePerRequest) {
  RequestCache<FieldKey, std::optional<std::string>> cache;
  auto [first, fresh] = cache.try_emplace(key("k"));
  EXPECT_TRUE(fresh);
  first = "value";
  auto [again, fresh_again] = cache.try_emplace(key("k"));
  EXPECT_FALSE(fresh_again);
  EXPECT_EQ(again, "value");
  EXPECT_TRUE(cache.contains(key("k")));
  EXPECT_FALSE(cache.contains(key("other")));
}

TEST(RequestCache, TheNextRequestSeesEveryEntryStaleAndEmpty) {
  RequestCache<FieldKey, std::vector<std::string>> cache;
  cache.try_emplace(key("k")).first = {"a", "b", "c"};
  cache.next_request();
  EXPECT_FALSE(cache.contains(key("k")));
  EXPECT_EQ(cache.filled(), 0u);
  auto [values, fresh] = cache.try_emplace(key("k"));
  EXPECT_TRUE(fresh);
  EXPECT_TRUE(values.empty());
  EXPECT_GE(values.capacity(), 3u);  // the buffer is the previous request's
  EXPECT_EQ(cache.filled(), 1u);
}

// A context hands its caches to the next context on the thread: nothing of the first request
// may show through in the second.
TEST(RequestCache, ARecycledContextStartsEmpty) {
  Request first;
  {
    RequestContext context(first);
    context.caches().values.try_emplace(ValuesKeyView{plan::Field::kQuery, "x"}).first = {
        "from the first request"};
    context.caches().dry_run = true;
  }
  Request second;
  RequestContext context(second);
  EXPECT_FALSE(context.caches().values.contains(ValuesKeyView{plan::Field::kQuery, "x"}));
  EXPECT_FALSE(context.caches().dry_run);
}

// Keys are compared member by member: keys that the old joined-string keys ran together (a field
// name holding the separator and the selector, namespaces whose prefix and URI share a '=')
// stay apart.
TEST(RequestCache, KeysThatWouldJoinToOneTextStayApart) {
  FieldKey selected = key("body");
  selected.selection.kind = SelectionKey::Kind::kJsonPath;
  selected.selection.selector = "$.x";
  const FieldKey named =
      key("J$.x\x1f"
          "body");
  FieldKey ns = key("body");
  ns.selection.kind = SelectionKey::Kind::kXPath;
  ns.selection.selector = "//a:id";
  ns.selection.ns = {{"a=b", "c"}};
  FieldKey other_ns = ns;
  other_ns.selection.ns = {{"a", "b=c"}};
  RequestCache<FieldKey, int> cache;
  cache.try_emplace(named).first = 1;
  cache.try_emplace(ns).first = 2;
  EXPECT_TRUE(cache.try_emplace(selected).second);
  EXPECT_TRUE(cache.try_emplace(other_ns).second);
  EXPECT_EQ(cache.filled(), 4u);

  RequestCache<ValuesKey, int> values;
  values.try_emplace(ValuesKeyView{plan::Field::kQuery, "1x"}).first = 1;
  EXPECT_FALSE(values.contains(ValuesKeyView{plan::Field::kHeader, "1x"}));
  EXPECT_TRUE(values.contains(ValuesKeyView{plan::Field::kQuery, "1x"}));
}

}  // namespace
}  // namespace rift
