#include "runtime/http/traffic_counters.h"

#include <cerrno>

#include "runtime/http/message.h"

namespace rift::http {

namespace {

constexpr std::array<std::string_view, AnswerCounters::kOtherMethod> kMethodNames = {
    "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"};

}  // namespace

AcceptCounters::AcceptCounters(std::string listener, unsigned slots)
    : listener_(std::move(listener)), accepted_(slots) {}

void AcceptCounters::accepted(unsigned slot) {
  if (slot < accepted_.size()) accepted_[slot].value.fetch_add(1, std::memory_order_relaxed);
}

void AcceptCounters::failed(bool systemic) {
  (systemic ? systemic_ : transient_).add();
}

uint64_t AcceptCounters::accepted_on(unsigned slot) const {
  return slot < accepted_.size() ? accepted_[slot].value.load(std::memory_order_relaxed) : 0;
}

void AcceptCounters::entered_outage() {
  outage_.fetch_add(1, std::memory_order_relaxed);
}

void AcceptCounters::left_outage() {
  outage_.fetch_sub(1, std::memory_order_relaxed);
}

bool systemic_accept_error(int error_number) {
  return error_number == EMFILE || error_number == ENFILE || error_number == ENOBUFS ||
         error_number == ENOMEM;
}

AnswerCounters::AnswerCounters() : shards_(kCounterShards) {}

uint8_t AnswerCounters::method_slot(std::string_view method) {
  for (size_t i = 0; i < kMethodNames.size(); ++i) {
    if (kMethodNames[i] == method) return static_cast<uint8_t>(i);
  }
  return kOtherMethod;
}

void AnswerCounters::count(uint8_t method_slot, std::string_view other_method, int status) {
  if (method_slot < kOtherMethod && status >= kLowStatus && status < kHighStatus) {
    shards_[thread_shard()]
        .value.counts[method_slot * kStatuses + static_cast<size_t>(status - kLowStatus)]
        .fetch_add(1, std::memory_order_relaxed);
    return;
  }
  const std::string method(method_slot < kOtherMethod ? kMethodNames[method_slot] : other_method);
  std::lock_guard lock(others_mutex_);
  ++others_[{method, status}];
}

void AnswerCounters::for_each(
    const std::function<void(std::string_view, int, uint64_t)>& visit) const {
  std::map<std::pair<std::string, int>, uint64_t> totals;
  for (size_t method = 0; method < kOtherMethod; ++method) {
    for (size_t status = 0; status < kStatuses; ++status) {
      uint64_t total = 0;
      for (const auto& shard : shards_) {
        total += shard.value.counts[method * kStatuses + status].load(std::memory_order_relaxed);
      }
      if (total > 0) {
        totals[{std::string(kMethodNames[method]), static_cast<int>(status) + kLowStatus}] = total;
      }
    }
  }
  {
    std::lock_guard lock(others_mutex_);
    for (const auto& [key, total] : others_) totals[key] += total;
  }
  for (const auto& [key, total] : totals) visit(key.first, key.second, total);
}

int reply_status(const Reply& reply) {
  std::string_view head = reply.bytes;
  for (size_t i = 0; head.empty() && i < reply.lent.size(); ++i) head = reply.lent[i];
  // "HTTP/1.1 200 ..." (a reply is always framed as HTTP/1.x by the renderer).
  if (head.size() < 12 || head.substr(0, 5) != "HTTP/") return 0;
  int status = 0;
  for (size_t i = 9; i < 12; ++i) {
    if (head[i] < '0' || head[i] > '9') return 0;
    status = status * 10 + (head[i] - '0');
  }
  return status;
}

}  // namespace rift::http
