// The Redis flow store (docs/flow-state.md): what several Rift replicas share. Keys are
// `<keyPrefix>flow:<flowId>:<key>` holding the value's JSON text, written with an expiry
// (SET .. EX), so Redis does the reaping. incr_by and compare_and_set run as Lua scripts, which
// Redis runs one at a time: two replicas can never both win a compare-and-set.
//
// Commands are blocking, on a pool of up to poolSize connections; a broken connection is
// dropped and the next call dials again, so service resumes by itself when Redis is back.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <variant>
#include <vector>

#include "frontends/flow_store_settings.h"
#include "runtime/flow_state/flow_store.h"

struct redisContext;
struct redisReply;

namespace rift::flow_state {

class RedisStore final : public FlowStore {
 public:
  // A store that has reached Redis once (dialled, authenticated, selected its database and
  // answered PING), or why it could not.
  static std::variant<std::unique_ptr<RedisStore>, std::string> connect(
      const frontends::FlowStoreSettings& settings);

  Result<std::optional<ir::Json>> get(std::string_view flow, std::string_view key) override;
  Result<Done> set(std::string_view flow, std::string_view key, const ir::Json& value) override;
  Result<bool> remove(std::string_view flow, std::string_view key) override;
  Result<Done> clear(std::string_view flow) override;
  Result<int64_t> incr_by(std::string_view flow, std::string_view key, int64_t delta) override;
  Result<bool> compare_and_set(std::string_view flow, std::string_view key,
                               const std::optional<ir::Json>& expected,
                               const ir::Json& value) override;
  Result<bool> expire(std::string_view flow, std::string_view key, int64_t seconds) override;
  Result<Done> expire_flow(std::string_view flow, int64_t seconds) override;
  int64_t ttl_seconds() const override { return settings_.ttl_seconds; }
  std::string_view backend() const override { return "redis"; }

  ~RedisStore() override;

  struct ContextDeleter {
    void operator()(redisContext* context) const;
  };
  struct ReplyDeleter {
    void operator()(redisReply* reply) const;
  };
  using Context = std::unique_ptr<redisContext, ContextDeleter>;
  using Reply = std::unique_ptr<redisReply, ReplyDeleter>;

  explicit RedisStore(const frontends::FlowStoreSettings& settings);

 private:
  // One command (each argument binary-safe), on a pooled connection.
  Result<Reply> command(const std::vector<std::string>& arguments);
  static Reply send(redisContext* context, const std::vector<std::string>& arguments);
  std::variant<Context, std::string> dial() const;
  // Runs `each` on every key of the flow, a SCAN page at a time.
  Result<Done> for_each_key_page(std::string_view flow,
                                 const std::function<Result<Done>(std::vector<std::string>)>& each);
  std::string key_of(std::string_view flow, std::string_view key) const;

  const frontends::FlowStoreSettings settings_;
  std::mutex mutex_;
  std::condition_variable returned_;
  std::vector<Context> idle_;
  int open_ = 0;  // connections idle or lent out
  // steady_clock ticks until which no dial is tried (after one timed out); 0: dial freely.
  std::atomic<std::chrono::steady_clock::rep> quiet_until_{0};
};

}  // namespace rift::flow_state
