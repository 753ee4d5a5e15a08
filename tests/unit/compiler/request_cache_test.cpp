#include "compiler/request_cache.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "compiler/predicate_context.h"
#include "compiler/request.h"

namespace rift {
namespace {

TEST(RequestCache, AnEntryIsFilledOncePerRequest) {
  RequestCache<std::optional<std::string>> cache;
  auto [first, fresh] = cache.try_emplace("k");
  EXPECT_TRUE(fresh);
  first = "value";
  auto [again, fresh_again] = cache.try_emplace("k");
  EXPECT_FALSE(fresh_again);
  EXPECT_EQ(again, "value");
  EXPECT_TRUE(cache.contains("k"));
  EXPECT_FALSE(cache.contains("other"));
}

TEST(RequestCache, TheNextRequestSeesEveryEntryStaleAndEmpty) {
  RequestCache<std::vector<std::string>> cache;
  cache.try_emplace("k").first = {"a", "b", "c"};
  cache.next_request();
  EXPECT_FALSE(cache.contains("k"));
  EXPECT_EQ(cache.filled(), 0u);
  auto [values, fresh] = cache.try_emplace("k");
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
    context.caches().values.try_emplace("1x").first = {"from the first request"};
    context.caches().dry_run = true;
  }
  Request second;
  RequestContext context(second);
  EXPECT_FALSE(context.caches().values.contains("1x"));
  EXPECT_FALSE(context.caches().dry_run);
}

}  // namespace
}  // namespace rift
