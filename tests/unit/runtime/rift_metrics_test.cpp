// The metrics port's counters (runtime/http/traffic_counters.h, runtime/metrics/): what the
// listeners, connections, flow stores and imposters add is what a scrape reads, in the
// Prometheus text format, with the reference Rift's names and labels.
#include "runtime/metrics/rift_metrics.h"

#include <cerrno>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/flow_state/counting_store.h"
#include "runtime/flow_state/memory_store.h"
#include "runtime/http/message.h"

namespace rift {
namespace {

bool has_line(const std::string& text, const std::string& line) {
  return text.find("\n" + line + "\n") != std::string::npos || text.rfind(line + "\n", 0) == 0;
}

TEST(AnswerCounters, CountsByMethodAndStatusAcrossThreadsAndKeepsTheRareOnesByName) {
  http::AnswerCounters answers;
  const uint8_t get = http::AnswerCounters::method_slot("GET");
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 1000; ++i) answers.count(get, "", 200);
    });
  }
  for (auto& thread : threads) thread.join();
  const uint8_t other = http::AnswerCounters::method_slot("PURGE");
  EXPECT_EQ(other, http::AnswerCounters::kOtherMethod);
  answers.count(other, "PURGE", 204);
  answers.count(http::AnswerCounters::method_slot("POST"), "", 999);  // beyond the table
  std::vector<std::string> seen;
  answers.for_each([&](std::string_view method, int status, uint64_t count) {
    seen.push_back(std::string(method) + " " + std::to_string(status) + " " +
                   std::to_string(count));
  });
  EXPECT_EQ(seen, (std::vector<std::string>{"GET 200 4000", "POST 999 1", "PURGE 204 1"}));
}

TEST(ReplyStatus, ReadsTheStatusLineWhereverTheReplyBegins) {
  http::Reply reply;
  reply.bytes = "HTTP/1.1 503 Service Unavailable\r\n\r\n";
  EXPECT_EQ(http::reply_status(reply), 503);
  http::Reply lent;
  lent.lent[0] = "HTTP/1.1 201 Created\r\n";
  EXPECT_EQ(http::reply_status(lent), 201);
  http::Reply reset;
  reset.reset = true;
  EXPECT_EQ(http::reply_status(reset), 0);
  http::Reply garbage;
  garbage.bytes = "HTTP/1.1 2x1 Odd\r\n";
  EXPECT_EQ(http::reply_status(garbage), 0);
}

TEST(AcceptCounters, AnOutageLastsWhileAnyListenerOfTheKindIsInOne) {
  http::AcceptCounters accepts("imposter", 2);
  accepts.accepted(1);
  accepts.accepted(7);  // no such slot: ignored, never out of bounds
  EXPECT_EQ(accepts.accepted_on(1), 1u);
  EXPECT_EQ(accepts.accepted_on(0), 0u);
  EXPECT_TRUE(http::systemic_accept_error(EMFILE));
  EXPECT_FALSE(http::systemic_accept_error(ECONNABORTED));
  accepts.failed(false);
  accepts.failed(true);
  accepts.entered_outage();
  accepts.entered_outage();
  accepts.left_outage();
  EXPECT_TRUE(accepts.in_outage());
  accepts.left_outage();
  EXPECT_FALSE(accepts.in_outage());
  EXPECT_EQ(accepts.transient_errors(), 1u);
  EXPECT_EQ(accepts.systemic_errors(), 1u);
}

TEST(CountingStore, CountsEachOperationBySuccessOrError) {
  auto counters = std::make_shared<flow_state::FlowOpCounters>();
  auto store = flow_state::counting_store(std::make_shared<flow_state::MemoryStore>(60), counters);
  ASSERT_FALSE(std::holds_alternative<flow_state::StoreError>(store->set("f", "k", "text")));
  (void)store->get("f", "k");
  (void)store->get("f", "absent");  // a miss is still a successful get
  // incr_by on text is the store's error.
  EXPECT_TRUE(std::holds_alternative<flow_state::StoreError>(store->incr_by("f", "k", 1)));
  EXPECT_EQ(store->backend(), "inmemory");
  EXPECT_EQ(store->active_flows(), 1u);  // through the counting store, from the memory store
  ASSERT_FALSE(std::holds_alternative<flow_state::StoreError>(store->set("g", "k", 1)));
  EXPECT_EQ(store->active_flows(), 2u);
  (void)store->expire_flow("g", 0);  // a flow whose keys expired is no longer active
  EXPECT_EQ(store->active_flows(), 1u);
  using Op = flow_state::FlowOpCounters;
  EXPECT_EQ(counters->successes(Op::kSet), 2u);
  EXPECT_EQ(counters->successes(Op::kGet), 2u);
  EXPECT_EQ(counters->errors(Op::kIncrement), 1u);
  EXPECT_EQ(counters->successes(Op::kIncrement), 0u);
}

TEST(RiftMetrics, RendersTheReferenceSeriesAndLeavesOutFamiliesWithoutSeries) {
  metrics::RiftMetrics metrics(2);
  std::string text = metrics.render();
  // Listener series are there from the start, as in the reference; counted families are not.
  EXPECT_TRUE(has_line(text, "rift_accept_error_outage{listener=\"imposter\"} 0")) << text;
  EXPECT_TRUE(has_line(text, "rift_accept_errors_total{class=\"transient\",listener=\"admin\"} 0"));
  EXPECT_TRUE(has_line(text, "rift_accepted_connections_total{worker=\"1\"} 0"));
  EXPECT_EQ(text.find("rift_requests_total"), std::string::npos);
  EXPECT_EQ(text.find("rift_faults_injected_total"), std::string::npos);

  metrics.imposter_accepts->accepted(1);
  metrics.answers->count(http::AnswerCounters::method_slot("GET"), "", 200);
  metrics.matched(metrics::tier_of("jit"));
  metrics.matched(metrics::tier_of("something new"));
  metrics.flow_ops->count(flow_state::FlowOpCounters::kGet, false);
  auto rule = metrics.rule(metrics::rule_id(4545, std::string("a\"b"), 3));
  EXPECT_EQ(rule, metrics.rule("4545/a\"b"));  // one set of counters per rule, for good
  rule->latency_fault(120);
  rule->error_fault(503);
  rule->tcp_fault();
  rule->script_ran(metrics::RuleMetrics::ScriptResult::kError, 0.7);
  rule->script_failed(metrics::RuleMetrics::ScriptError::kTimeout);
  metrics.upstream("POST", 201, 3.0);

  text = metrics.render({{"inmemory", 3}});
  EXPECT_TRUE(has_line(text, "rift_active_flows{backend=\"inmemory\"} 3")) << text;
  const std::string rule_label = "rule_id=\"4545/a\\\"b\"";
  for (const std::string& line : {
           std::string("rift_accepted_connections_total{worker=\"1\"} 1"),
           std::string("rift_requests_total{method=\"GET\",status=\"200\"} 1"),
           std::string("rift_matches_total{tier=\"jit\"} 1"),
           std::string("rift_matches_total{tier=\"other\"} 1"),
           std::string("rift_flow_state_ops_total{operation=\"get\",result=\"error\"} 1"),
           "rift_faults_injected_total{type=\"latency\"," + rule_label + ",source=\"v1\"} 1",
           "rift_faults_injected_total{type=\"error\"," + rule_label + ",source=\"v1\"} 1",
           "rift_faults_injected_total{type=\"tcp\"," + rule_label + ",source=\"v1\"} 1",
           "rift_error_status_total{status=\"503\"," + rule_label + "} 1",
           "rift_latency_injected_ms_bucket{le=\"100\"," + rule_label + "} 0",
           "rift_latency_injected_ms_bucket{le=\"250\"," + rule_label + "} 1",
           "rift_latency_injected_ms_sum{" + rule_label + "} 120",
           "rift_script_execution_duration_ms_bucket{le=\"1\"," + rule_label +
               ",result=\"error\"} 1",
           "rift_script_errors_total{" + rule_label + ",error_type=\"timeout\"} 1",
           std::string("rift_upstream_request_duration_ms_bucket{le=\"5\",method=\"POST\","
                       "status=\"201\"} 1"),
       }) {
    EXPECT_TRUE(has_line(text, line)) << line << "\n" << text;
  }
  // Every family is announced once, before its series.
  EXPECT_EQ(text.find("# TYPE rift_requests_total counter\n"),
            text.rfind("# TYPE rift_requests_total counter\n"));
  EXPECT_LT(text.find("# TYPE rift_latency_injected_ms histogram"),
            text.find("rift_latency_injected_ms_bucket"));
}

}  // namespace
}  // namespace rift
