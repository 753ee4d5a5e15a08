// Both flow store backends against one contract (runtime/flow_state/flow_store.h), the Redis one
// against a real redis-server; then what only one of them does (the reaper; Redis's key layout
// and outages).
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "runtime/flow_state/make_store.h"
#include "runtime/flow_state/memory_store.h"
#include "runtime/flow_state/redis_store.h"
#include "tests/unit/runtime/redis_server.h"

namespace rift::flow_state {
namespace {

using Json = ir::Json;

template <class T>
T value_of(Result<T> result) {
  if (auto* error = std::get_if<StoreError>(&result)) {
    ADD_FAILURE() << "store error: " << error->detail;
    return T{};
  }
  return std::get<T>(std::move(result));
}

frontends::FlowStoreSettings redis_settings(const testing::RedisServer& server) {
  frontends::FlowStoreSettings settings;
  settings.backend = frontends::FlowStoreSettings::Backend::kRedis;
  settings.redis.port = server.port();
  settings.pool_size = 4;
  return settings;
}

struct MemoryBackend {
  std::shared_ptr<FlowStore> make() { return std::make_shared<MemoryStore>(300); }
};

struct RedisBackend {
  testing::RedisServer server;
  std::shared_ptr<FlowStore> make() {
    auto store = make_store(redis_settings(server));
    if (auto* error = std::get_if<MbError>(&store)) throw std::runtime_error(error->message);
    return std::get<std::shared_ptr<FlowStore>>(store);
  }
};

template <class Backend>
class FlowStoreContract : public ::testing::Test {
 protected:
  Backend backend;
  std::shared_ptr<FlowStore> store = backend.make();
};

using Backends = ::testing::Types<MemoryBackend, RedisBackend>;
TYPED_TEST_SUITE(FlowStoreContract, Backends);

TYPED_TEST(FlowStoreContract, KeepsJsonValuesPerFlowAndKey) {
  auto& store = *this->store;
  value_of(store.set("flow-a", "cart", Json::parse(R"({"items":[1,2],"total":3.5})")));
  value_of(store.set("flow-b", "cart", Json("other")));
  EXPECT_EQ(value_of(store.get("flow-a", "cart")), Json::parse(R"({"items":[1,2],"total":3.5})"));
  EXPECT_EQ(value_of(store.get("flow-b", "cart")), Json("other"));
  EXPECT_EQ(value_of(store.get("flow-a", "missing")), std::nullopt);
  value_of(store.set("flow-a", "nothing", Json(nullptr)));
  EXPECT_EQ(value_of(store.get("flow-a", "nothing")), Json(nullptr));
}

TYPED_TEST(FlowStoreContract, RemovesOneKeyOrAWholeFlow) {
  auto& store = *this->store;
  value_of(store.set("f", "a", Json(1)));
  value_of(store.set("f", "b", Json(2)));
  value_of(store.set("g", "a", Json(3)));
  EXPECT_TRUE(value_of(store.remove("f", "a")));
  EXPECT_FALSE(value_of(store.remove("f", "a")));
  value_of(store.clear("f"));
  EXPECT_EQ(value_of(store.get("f", "b")), std::nullopt);
  EXPECT_EQ(value_of(store.get("g", "a")), Json(3));
  value_of(store.clear("never-written"));
}

TYPED_TEST(FlowStoreContract, ClearingAFlowWhoseIdIsAGlobTouchesOnlyThatFlow) {
  auto& store = *this->store;
  value_of(store.set("*", "k", Json(1)));
  value_of(store.set("other", "k", Json(2)));
  value_of(store.clear("*"));
  EXPECT_EQ(value_of(store.get("*", "k")), std::nullopt);
  EXPECT_EQ(value_of(store.get("other", "k")), Json(2));
}

TYPED_TEST(FlowStoreContract, IncrementsWholeNumbersAndRefusesOthers) {
  auto& store = *this->store;
  EXPECT_EQ(value_of(store.incr_by("f", "count", 1)), 1);
  EXPECT_EQ(value_of(store.incr_by("f", "count", 41)), 42);
  EXPECT_EQ(value_of(store.incr_by("f", "count", -50)), -8);
  EXPECT_EQ(value_of(store.get("f", "count")), Json(-8));
  value_of(store.set("f", "name", Json("x")));
  auto refused = store.incr_by("f", "name", 1);
  ASSERT_TRUE(std::holds_alternative<StoreError>(refused));
  EXPECT_EQ(std::get<StoreError>(refused).kind, StoreError::Kind::kBadValue);
  value_of(store.set("f", "fraction", Json(1.5)));
  EXPECT_TRUE(std::holds_alternative<StoreError>(store.incr_by("f", "fraction", 1)));
  EXPECT_EQ(value_of(store.get("f", "name")), Json("x"));
}

TYPED_TEST(FlowStoreContract, CompareAndSetComparesValuesNotSpellings) {
  auto& store = *this->store;
  EXPECT_TRUE(value_of(store.compare_and_set("f", "s", std::nullopt, Json("Started"))));
  EXPECT_FALSE(value_of(store.compare_and_set("f", "s", std::nullopt, Json("Other"))));
  EXPECT_FALSE(value_of(store.compare_and_set("f", "s", Json("Wrong"), Json("Other"))));
  EXPECT_TRUE(value_of(store.compare_and_set("f", "s", Json("Started"), Json("Paid"))));
  EXPECT_EQ(value_of(store.get("f", "s")), Json("Paid"));
  value_of(store.set("f", "o", Json::parse(R"({"b":1,"a":2})")));
  EXPECT_TRUE(value_of(
      store.compare_and_set("f", "o", Json::parse(R"({"a":2,"b":1})"), Json::parse("[1]"))));
}

TYPED_TEST(FlowStoreContract, OfConcurrentCompareAndSetsExactlyOneWins) {
  auto& store = *this->store;
  value_of(store.set("f", "scenario", Json("Started")));
  std::atomic<int> winners = 0;
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&, i] {
      auto won = store.compare_and_set("f", "scenario", Json("Started"),
                                       Json("advanced by " + std::to_string(i)));
      if (auto* yes = std::get_if<bool>(&won); yes && *yes) ++winners;
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(winners.load(), 1);
}

TYPED_TEST(FlowStoreContract, ExpireWithNoLifeLeftRemoves) {
  auto& store = *this->store;
  value_of(store.set("f", "a", Json(1)));
  EXPECT_TRUE(value_of(store.expire("f", "a", 0)));
  EXPECT_EQ(value_of(store.get("f", "a")), std::nullopt);
  EXPECT_FALSE(value_of(store.expire("f", "a", 10)));
  value_of(store.set("f", "b", Json(1)));
  value_of(store.expire_flow("f", -1));
  EXPECT_EQ(value_of(store.get("f", "b")), std::nullopt);
}

// --- in memory: lifetimes on a clock the test moves ---

class MemoryLifetimes : public ::testing::Test {
 protected:
  std::chrono::steady_clock::time_point now{};
  MemoryStore store{10, [this] { return now; }};
  void advance(int seconds) { now += std::chrono::seconds(seconds); }
};

TEST_F(MemoryLifetimes, EveryWriteRestampsTheKey) {
  value_of(store.set("f", "k", Json(1)));
  advance(9);
  value_of(store.incr_by("f", "k", 1));
  advance(9);
  EXPECT_EQ(value_of(store.get("f", "k")), Json(2));
  advance(1);
  EXPECT_EQ(value_of(store.get("f", "k")), std::nullopt);
}

TEST_F(MemoryLifetimes, APerKeyLifetimeHoldsUntilTheNextWrite) {
  value_of(store.set("f", "short", Json(1)));
  value_of(store.set("f", "long", Json(1)));
  value_of(store.expire("f", "short", 2));
  value_of(store.expire("f", "long", 100));
  advance(50);
  EXPECT_EQ(value_of(store.get("f", "short")), std::nullopt);
  EXPECT_EQ(value_of(store.get("f", "long")), Json(1));
  value_of(store.set("f", "long", Json(2)));
  advance(10);
  EXPECT_EQ(value_of(store.get("f", "long")), std::nullopt);
}

TEST_F(MemoryLifetimes, AFlowWideLifetimeRestampsEveryLiveKey) {
  value_of(store.set("f", "a", Json(1)));
  value_of(store.set("f", "b", Json(1)));
  value_of(store.set("g", "a", Json(1)));
  value_of(store.expire_flow("f", 60));
  advance(30);
  EXPECT_EQ(value_of(store.get("f", "a")), Json(1));
  EXPECT_EQ(value_of(store.get("g", "a")), std::nullopt);
}

TEST_F(MemoryLifetimes, TheReaperDropsKeysNobodyReadsAgain) {
  for (int i = 0; i < 100; ++i) value_of(store.set("f" + std::to_string(i), "k", Json(i)));
  advance(11);
  EXPECT_EQ(store.stored_entries(), 100u);
  value_of(store.set("fresh", "k", Json(1)));
  EXPECT_EQ(store.stored_entries(), 1u);
}

TEST_F(MemoryLifetimes, AnExpiredValueDoesNotCountForCompareAndSetOrIncrement) {
  value_of(store.set("f", "s", Json("Paid")));
  value_of(store.set("f", "n", Json(5)));
  advance(10);
  EXPECT_FALSE(value_of(store.compare_and_set("f", "s", Json("Paid"), Json("Shipped"))));
  EXPECT_TRUE(value_of(store.compare_and_set("f", "s", std::nullopt, Json("Started"))));
  EXPECT_EQ(value_of(store.incr_by("f", "n", 1)), 1);
}

// --- Redis: the shared layout, lifetimes as Redis keeps them, outages ---

class RedisOnly : public ::testing::Test {
 protected:
  testing::RedisServer server;
  std::shared_ptr<FlowStore> store;
  void SetUp() override {
    auto made = make_store(redis_settings(server));
    ASSERT_TRUE(std::holds_alternative<std::shared_ptr<FlowStore>>(made));
    store = std::get<std::shared_ptr<FlowStore>>(made);
  }
};

TEST_F(RedisOnly, KeysAreThePrefixTheFlowAndTheKeyHoldingJsonText) {
  value_of(store->set("flow-1", "cart", Json::parse(R"({"n":1})")));
  EXPECT_EQ(server.command({"GET", "rift:flow:flow-1:cart"}), R"({"n":1})");
  const int ttl = std::stoi(server.command({"TTL", "rift:flow:flow-1:cart"}));
  EXPECT_GT(ttl, 290);
  EXPECT_LE(ttl, 300);
}

TEST_F(RedisOnly, AWriteRestampsAShortenedKey) {
  value_of(store->set("f", "k", Json(1)));
  value_of(store->expire("f", "k", 5));
  EXPECT_LE(std::stoi(server.command({"TTL", "rift:flow:f:k"})), 5);
  value_of(store->incr_by("f", "k", 1));
  EXPECT_GT(std::stoi(server.command({"TTL", "rift:flow:f:k"})), 290);
}

TEST_F(RedisOnly, AValueWrittenPastRiftThatIsNotJsonReadsAsText) {
  server.command({"SET", "rift:flow:f:raw", "not json"});
  EXPECT_EQ(value_of(store->get("f", "raw")), Json("not json"));
}

TEST_F(RedisOnly, AnOutageIsUnavailableAndServiceResumesWhenRedisIsBack) {
  value_of(store->set("f", "k", Json(1)));
  server.stop();
  auto during = store->get("f", "k");
  ASSERT_TRUE(std::holds_alternative<StoreError>(during));
  EXPECT_EQ(std::get<StoreError>(during).kind, StoreError::Kind::kUnavailable);
  EXPECT_TRUE(std::holds_alternative<StoreError>(store->set("f", "k", Json(2))));
  server.start();  // same port, empty (nothing was saved)
  EXPECT_EQ(value_of(store->get("f", "k")), std::nullopt);
  value_of(store->set("f", "k", Json(3)));
  EXPECT_EQ(value_of(store->get("f", "k")), Json(3));
}

// A "Redis" that accepts connections and never answers: every command waits out the timeout.
TEST(RedisOutage, AfterATimeoutCallsFailAtOnceInsteadOfWaitingAgain) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(address);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  ASSERT_EQ(listen(fd, 16), 0);
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  frontends::FlowStoreSettings settings;
  settings.backend = frontends::FlowStoreSettings::Backend::kRedis;
  settings.redis.port = ntohs(address.sin_port);
  RedisStore store(settings);
  auto first = store.get("f", "k");
  ASSERT_TRUE(std::holds_alternative<StoreError>(first));
  EXPECT_EQ(std::get<StoreError>(first).kind, StoreError::Kind::kUnavailable);
  auto second = store.get("f", "k");
  ASSERT_TRUE(std::holds_alternative<StoreError>(second));
  EXPECT_NE(std::get<StoreError>(second).detail.find("not trying again for a second"),
            std::string::npos)
      << std::get<StoreError>(second).detail;
  close(fd);
}

TEST(RedisConnect, AnUnreachableRedisIsAConfigurationError) {
  frontends::FlowStoreSettings settings;
  settings.backend = frontends::FlowStoreSettings::Backend::kRedis;
  settings.redis.port = 1;
  auto made = make_store(settings);
  ASSERT_TRUE(std::holds_alternative<MbError>(made));
  EXPECT_EQ(std::get<MbError>(made).code, "bad data");
  EXPECT_NE(std::get<MbError>(made).message.find("cannot reach Redis at 127.0.0.1:1"),
            std::string::npos)
      << std::get<MbError>(made).message;
}

TEST(RedisConnect, AWrongPasswordIsAConfigurationError) {
  testing::RedisServer server;
  server.command({"CONFIG", "SET", "requirepass", "right"});
  auto settings = redis_settings(server);
  settings.redis.password = "wrong";
  auto made = make_store(settings);
  ASSERT_TRUE(std::holds_alternative<MbError>(made));
  EXPECT_NE(std::get<MbError>(made).message.find("refused AUTH"), std::string::npos);
  settings.redis.password = "right";
  settings.redis.db = 3;
  auto good = make_store(settings);
  ASSERT_TRUE(std::holds_alternative<std::shared_ptr<FlowStore>>(good));
  value_of(std::get<std::shared_ptr<FlowStore>>(good)->set("f", "k", Json(1)));
}

}  // namespace
}  // namespace rift::flow_state
