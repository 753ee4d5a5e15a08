#include "runtime/flow_state/redis_store.h"

#include <hiredis/hiredis.h>
#include <sys/time.h>

#include <chrono>

namespace rift::flow_state {
namespace {

// Long enough for a loaded Redis, short enough that an outage answers 503 before a client's own
// timeout.
constexpr timeval kConnectTimeout{1, 0};
constexpr timeval kCommandTimeout{2, 0};
constexpr auto kPoolWait = std::chrono::seconds(2);
// A failure this slow waited out a timeout (a refused connection fails at once); after it, calls
// that would dial fail at once for kQuietAfterSlowFailure instead of waiting out another.
constexpr auto kSlowFailure = std::chrono::milliseconds(900);
constexpr auto kQuietAfterSlowFailure = std::chrono::seconds(1);

// KEYS[1]: the key; ARGV: delta, ttl. INCRBY refuses a value that is not an integer's text, so
// "1.5" or "\"x\"" fail the script as a JSON non-integer should.
constexpr std::string_view kIncrBy =
    "local v = redis.call('INCRBY', KEYS[1], ARGV[1]) "
    "redis.call('EXPIRE', KEYS[1], ARGV[2]) return v";
// KEYS[1]: the key; ARGV: "1" when a value is expected (else the key must be absent), the
// expected text, the new text, ttl.
constexpr std::string_view kCompareAndSet =
    "local c = redis.call('GET', KEYS[1]) "
    "if (ARGV[1] == '1' and c == ARGV[2]) or (ARGV[1] == '0' and not c) then "
    "redis.call('SET', KEYS[1], ARGV[3], 'EX', ARGV[4]) return 1 end return 0";

StoreError unavailable(std::string detail) {
  return StoreError{StoreError::Kind::kUnavailable, std::move(detail)};
}

// SCAN's MATCH is a glob: a flow id or prefix holding *, ?, [ or \ must match only itself.
std::string glob_escaped(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string reply_text(const redisReply& reply) {
  return std::string(reply.str, reply.len);
}

}  // namespace

// One command, each argument binary-safe; null when the connection failed.
RedisStore::Reply RedisStore::send(redisContext* context,
                                   const std::vector<std::string>& arguments) {
  std::vector<const char*> pointers;
  std::vector<size_t> lengths;
  for (const auto& argument : arguments) {
    pointers.push_back(argument.data());
    lengths.push_back(argument.size());
  }
  return Reply(static_cast<redisReply*>(redisCommandArgv(context, static_cast<int>(pointers.size()),
                                                         pointers.data(), lengths.data())));
}

void RedisStore::ContextDeleter::operator()(redisContext* context) const {
  redisFree(context);
}
void RedisStore::ReplyDeleter::operator()(redisReply* reply) const {
  freeReplyObject(reply);
}

RedisStore::RedisStore(const frontends::FlowStoreSettings& settings) : settings_(settings) {}

RedisStore::~RedisStore() = default;

std::variant<std::unique_ptr<RedisStore>, std::string> RedisStore::connect(
    const frontends::FlowStoreSettings& settings) {
  auto store = std::make_unique<RedisStore>(settings);
  auto pong = store->command({"PING"});
  if (auto* error = std::get_if<StoreError>(&pong)) return error->detail;
  return store;
}

std::variant<RedisStore::Context, std::string> RedisStore::dial() const {
  const auto& address = settings_.redis;
  const std::string where = address.host + ":" + std::to_string(address.port);
  Context context(redisConnectWithTimeout(address.host.c_str(), address.port, kConnectTimeout));
  if (!context) return "cannot reach Redis at " + where + ": out of memory";
  if (context->err) return "cannot reach Redis at " + where + ": " + context->errstr;
  redisSetTimeout(context.get(), kCommandTimeout);
  auto run = [&](const std::vector<std::string>& arguments) -> std::optional<std::string> {
    Reply reply = send(context.get(), arguments);
    if (!reply) return std::string(context->errstr);
    if (reply->type == REDIS_REPLY_ERROR) return reply_text(*reply);
    return std::nullopt;
  };
  if (!address.password.empty()) {
    auto refused = address.user.empty() ? run({"AUTH", address.password})
                                        : run({"AUTH", address.user, address.password});
    if (refused) return "Redis at " + where + " refused AUTH: " + *refused;
  }
  if (address.db != 0) {
    if (auto refused = run({"SELECT", std::to_string(address.db)})) {
      return "Redis at " + where + " refused SELECT " + std::to_string(address.db) + ": " +
             *refused;
    }
  }
  return context;
}

Result<RedisStore::Reply> RedisStore::command(const std::vector<std::string>& arguments) {
  Context context;
  {
    std::unique_lock lock(mutex_);
    const bool ready = returned_.wait_for(
        lock, kPoolWait, [&] { return !idle_.empty() || open_ < settings_.pool_size; });
    if (!ready) return unavailable("no Redis connection came free within 2 s");
    if (!idle_.empty()) {
      context = std::move(idle_.back());
      idle_.pop_back();
    }
    ++open_;
  }
  // Gives the connection back (or its slot, when it broke) however this call ends.
  auto give_back = [&](bool healthy) {
    std::lock_guard lock(mutex_);
    if (healthy && context) idle_.push_back(std::move(context));
    --open_;
    returned_.notify_one();
  };
  // A Redis that let a dial or a command time out is not dialled again for a while: each such
  // call holds a worker thread for the whole timeout, which would stall every imposter it serves.
  const auto started = std::chrono::steady_clock::now();
  auto failed = [&](std::string why) -> Result<Reply> {
    const auto now = std::chrono::steady_clock::now();
    if (now - started >= kSlowFailure) {
      quiet_until_.store((now + kQuietAfterSlowFailure).time_since_epoch().count(),
                         std::memory_order_relaxed);
    }
    give_back(false);
    return unavailable(std::move(why));
  };
  if (!context) {
    if (started.time_since_epoch().count() < quiet_until_.load(std::memory_order_relaxed)) {
      give_back(false);
      return unavailable("Redis at " + settings_.redis.host + ":" +
                         std::to_string(settings_.redis.port) +
                         " did not answer in time; not trying again for a second");
    }
    auto dialled = dial();
    if (auto* why = std::get_if<std::string>(&dialled)) return failed(std::move(*why));
    context = std::move(std::get<Context>(dialled));
  }
  Reply reply = send(context.get(), arguments);
  if (!reply) return failed("Redis connection failed: " + std::string(context->errstr));
  give_back(true);
  if (reply->type == REDIS_REPLY_ERROR) {
    std::string text = reply_text(*reply);
    if (text.find("not an integer") != std::string::npos ||
        text.find("overflow") != std::string::npos) {
      return StoreError{StoreError::Kind::kBadValue, "the value is not a whole number"};
    }
    return unavailable("Redis answered an error: " + text);
  }
  return reply;
}

std::string RedisStore::key_of(std::string_view flow, std::string_view key) const {
  std::string out = settings_.key_prefix;
  out += "flow:";
  out += flow;
  out += ':';
  out += key;
  return out;
}

Result<std::optional<ir::Json>> RedisStore::get(std::string_view flow, std::string_view key) {
  auto reply = command({"GET", key_of(flow, key)});
  if (auto* error = std::get_if<StoreError>(&reply)) return *error;
  const redisReply& value = *std::get<Reply>(reply);
  if (value.type != REDIS_REPLY_STRING) return std::optional<ir::Json>();
  // A value written past Rift (redis-cli SET) may not be JSON: it reads as the string it is.
  ir::Json json = ir::Json::parse(reply_text(value), nullptr, false);
  if (json.is_discarded()) json = reply_text(value);
  return std::optional<ir::Json>(std::move(json));
}

Result<Done> RedisStore::set(std::string_view flow, std::string_view key, const ir::Json& value) {
  auto reply = command({"SET", key_of(flow, key), canonical_json(value), "EX",
                        std::to_string(settings_.ttl_seconds)});
  if (auto* error = std::get_if<StoreError>(&reply)) return *error;
  return Done{};
}

Result<bool> RedisStore::remove(std::string_view flow, std::string_view key) {
  auto reply = command({"DEL", key_of(flow, key)});
  if (auto* error = std::get_if<StoreError>(&reply)) return *error;
  return std::get<Reply>(reply)->integer > 0;
}

Result<Done> RedisStore::for_each_key_page(
    std::string_view flow, const std::function<Result<Done>(std::vector<std::string>)>& each) {
  const std::string pattern = glob_escaped(key_of(flow, "")) + "*";
  std::string cursor = "0";
  do {
    auto reply = command({"SCAN", cursor, "MATCH", pattern, "COUNT", "1000"});
    if (auto* error = std::get_if<StoreError>(&reply)) return *error;
    const redisReply& page = *std::get<Reply>(reply);
    if (page.type != REDIS_REPLY_ARRAY || page.elements != 2) {
      return unavailable("Redis answered SCAN with something that is not a page");
    }
    cursor = reply_text(*page.element[0]);
    std::vector<std::string> keys;
    for (size_t i = 0; i < page.element[1]->elements; ++i) {
      keys.push_back(reply_text(*page.element[1]->element[i]));
    }
    if (!keys.empty()) {
      if (auto done = each(std::move(keys)); std::holds_alternative<StoreError>(done)) {
        return done;
      }
    }
  } while (cursor != "0");
  return Done{};
}

Result<Done> RedisStore::clear(std::string_view flow) {
  return for_each_key_page(flow, [&](std::vector<std::string> keys) -> Result<Done> {
    keys.insert(keys.begin(), "DEL");
    auto reply = command(keys);
    if (auto* error = std::get_if<StoreError>(&reply)) return *error;
    return Done{};
  });
}

Result<int64_t> RedisStore::incr_by(std::string_view flow, std::string_view key, int64_t delta) {
  auto reply = command({"EVAL", std::string(kIncrBy), "1", key_of(flow, key), std::to_string(delta),
                        std::to_string(settings_.ttl_seconds)});
  if (auto* error = std::get_if<StoreError>(&reply)) {
    if (error->kind == StoreError::Kind::kBadValue) {
      error->detail = "the value of '" + std::string(key) +
                      "' is not a whole number, or the sum would overflow a 64-bit integer";
    }
    return *error;
  }
  return static_cast<int64_t>(std::get<Reply>(reply)->integer);
}

Result<bool> RedisStore::compare_and_set(std::string_view flow, std::string_view key,
                                         const std::optional<ir::Json>& expected,
                                         const ir::Json& value) {
  auto reply = command({"EVAL", std::string(kCompareAndSet), "1", key_of(flow, key),
                        expected ? "1" : "0", expected ? canonical_json(*expected) : "",
                        canonical_json(value), std::to_string(settings_.ttl_seconds)});
  if (auto* error = std::get_if<StoreError>(&reply)) return *error;
  return std::get<Reply>(reply)->integer == 1;
}

Result<bool> RedisStore::expire(std::string_view flow, std::string_view key, int64_t seconds) {
  auto reply = seconds <= 0 ? command({"DEL", key_of(flow, key)})
                            : command({"EXPIRE", key_of(flow, key), std::to_string(seconds)});
  if (auto* error = std::get_if<StoreError>(&reply)) return *error;
  return std::get<Reply>(reply)->integer > 0;
}

Result<Done> RedisStore::expire_flow(std::string_view flow, int64_t seconds) {
  if (seconds <= 0) return clear(flow);
  return for_each_key_page(flow, [&](std::vector<std::string> keys) -> Result<Done> {
    for (auto& key : keys) {
      auto reply = command({"EXPIRE", std::move(key), std::to_string(seconds)});
      if (auto* error = std::get_if<StoreError>(&reply)) return *error;
    }
    return Done{};
  });
}

}  // namespace rift::flow_state
