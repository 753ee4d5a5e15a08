// `_rift.flowState`: which store keeps an imposter's flow state, read and checked without
// touching the network (docs/flow-state.md). Connecting is the runtime's job
// (runtime/flow_state/make_store.h).
#pragma once

#include <cstdint>
#include <string>
#include <variant>

#include "compiler/errors.h"
#include "compiler/ir.h"

namespace rift::frontends {

// Where a Redis store connects: `redis://[[user]:password@]host[:port][/db]`.
struct RedisAddress {
  std::string host = "127.0.0.1";
  int port = 6379;
  std::string user;      // empty: AUTH with the password alone (Redis before ACLs)
  std::string password;  // empty: no AUTH
  int64_t db = 0;
  bool operator==(const RedisAddress&) const = default;
};

struct FlowStoreSettings {
  enum class Backend { kInMemory, kRedis };
  Backend backend = Backend::kInMemory;
  int64_t ttl_seconds = 300;  // every write lives this long unless a later write restamps it
  RedisAddress redis;
  int pool_size = 10;
  std::string key_prefix = "rift:";
  bool operator==(const FlowStoreSettings&) const = default;
};

// The address a `redis://` URL names, or the error that says what is wrong with it.
std::variant<RedisAddress, MbError> parse_redis_url(std::string_view url);

// The settings `_rift.flowState` (an object) asks for, or every error in it, in field order.
// The reference's messages where it has them (backend, ttlSeconds).
std::variant<FlowStoreSettings, MbErrors> parse_flow_store(const ir::Json& flow_state);

}  // namespace rift::frontends
