#include "frontends/flow_store_settings.h"

#include <gtest/gtest.h>

namespace rift::frontends {
namespace {

using Json = ir::Json;

RedisAddress address(std::string_view url) {
  auto parsed = parse_redis_url(url);
  if (auto* error = std::get_if<MbError>(&parsed)) {
    ADD_FAILURE() << url << ": " << error->message;
    return {};
  }
  return std::get<RedisAddress>(parsed);
}

std::string url_error(std::string_view url) {
  auto parsed = parse_redis_url(url);
  auto* error = std::get_if<MbError>(&parsed);
  return error ? error->message : "";
}

TEST(RedisUrl, ReadsHostPortPasswordUserAndDatabase) {
  EXPECT_EQ(address("redis://cache"), (RedisAddress{"cache", 6379, "", "", 0}));
  EXPECT_EQ(address("redis://127.0.0.1:6390/2"), (RedisAddress{"127.0.0.1", 6390, "", "", 2}));
  EXPECT_EQ(address("redis://:s3cret@cache:7000"), (RedisAddress{"cache", 7000, "", "s3cret", 0}));
  EXPECT_EQ(address("redis://app:p%40ss@cache/"), (RedisAddress{"cache", 6379, "app", "p@ss", 0}));
  EXPECT_EQ(address("redis://lonepassword@cache"),
            (RedisAddress{"cache", 6379, "", "lonepassword", 0}));
  EXPECT_EQ(address("REDIS://[::1]:6380"), (RedisAddress{"::1", 6380, "", "", 0}));
}

TEST(RedisUrl, RefusesWhatItCannotConnectTo) {
  EXPECT_NE(url_error("http://cache").find("must use the redis:// scheme"), std::string::npos);
  EXPECT_NE(url_error("rediss://cache").find("rediss:// and redis+sentinel:// are not supported"),
            std::string::npos);
  EXPECT_NE(url_error("cache:6379").find("redis://[[user]:password@]host[:port][/db]"),
            std::string::npos);
  EXPECT_NE(url_error("redis://").find("has no host"), std::string::npos);
  EXPECT_NE(url_error("redis://cache:").find("empty port"), std::string::npos);
  EXPECT_NE(url_error("redis://cache:0").find("from 1 to 65535"), std::string::npos);
  EXPECT_NE(url_error("redis://cache:99999").find("from 1 to 65535"), std::string::npos);
  EXPECT_NE(url_error("redis://cache/x").find("database"), std::string::npos);
  EXPECT_NE(url_error("redis://cache/-1").find("database"), std::string::npos);
  EXPECT_NE(url_error("redis://cache?db=1").find("query"), std::string::npos);
  EXPECT_NE(url_error("redis://:%zz@cache").find("percent-escape"), std::string::npos);
  EXPECT_NE(url_error("redis://[::1").find("IPv6"), std::string::npos);
}

FlowStoreSettings settings(const char* json) {
  auto parsed = parse_flow_store(Json::parse(json));
  if (auto* errors = std::get_if<MbErrors>(&parsed)) {
    ADD_FAILURE() << json << ": " << errors->front().message;
    return {};
  }
  return std::get<FlowStoreSettings>(parsed);
}

std::vector<std::string> messages(const char* json) {
  auto parsed = parse_flow_store(Json::parse(json));
  std::vector<std::string> out;
  if (auto* errors = std::get_if<MbErrors>(&parsed)) {
    for (const auto& error : *errors) out.push_back(error.message);
  }
  return out;
}

TEST(FlowStoreSettings, DefaultsToAnInMemoryStoreOfFiveMinutes) {
  EXPECT_EQ(settings("{}"), FlowStoreSettings{});
  EXPECT_EQ(settings("{}").ttl_seconds, 300);
  EXPECT_EQ(settings(R"({"flowIdSource": "header:X-Flow", "someEmbedderKey": 1})").backend,
            FlowStoreSettings::Backend::kInMemory);
}

TEST(FlowStoreSettings, ReadsARedisStore) {
  auto read = settings(
      R"({"backend": "redis", "ttlSeconds": 60,
          "redis": {"url": "redis://cache:6380/1", "poolSize": 3, "keyPrefix": "ci:"}})");
  EXPECT_EQ(read.backend, FlowStoreSettings::Backend::kRedis);
  EXPECT_EQ(read.ttl_seconds, 60);
  EXPECT_EQ(read.redis, (RedisAddress{"cache", 6380, "", "", 1}));
  EXPECT_EQ(read.pool_size, 3);
  EXPECT_EQ(read.key_prefix, "ci:");
  EXPECT_EQ(settings(R"({"backend": "redis", "redis": {"url": "redis://cache"}})").pool_size, 10);
}

TEST(FlowStoreSettings, NamesEveryMistake) {
  EXPECT_EQ(messages(R"({"backend": "memcached"})"),
            std::vector<std::string>{
                "Flow store configuration error: flowState.backend is \"memcached\" but no such "
                "backend exists (expected \"inmemory\" or \"redis\")"});
  EXPECT_EQ(messages(R"({"ttlSeconds": 0})"),
            std::vector<std::string>{
                "Flow store configuration error: flowState.ttlSeconds must be >= 1 (got 0); a "
                "non-positive TTL would expire every write immediately"});
  EXPECT_EQ(messages(R"({"ttlSeconds": 0.5})").size(), 1u);
  EXPECT_EQ(messages(R"({"ttlSeconds": "10"})").size(), 1u);
  EXPECT_EQ(messages(R"({"backend": "redis"})"),
            std::vector<std::string>{
                "Flow store configuration error: flowState.backend is \"redis\" but no redis "
                "config block was provided"});
  EXPECT_EQ(messages(R"({"backend": "redis", "redis": {"url": 5, "poolSize": 0, "keyPrefix": 1}})")
                .size(),
            3u);
  EXPECT_EQ(
      messages(R"({"backend": "redis", "redis": {"url": "redis://h", "poolSize": "2"}})").size(),
      1u);
  EXPECT_EQ(messages(R"({"backend": "redis", "redis": "redis://h"})").size(), 1u);
}

}  // namespace
}  // namespace rift::frontends
