// The imposters' dice (runtime/base/dice.h) and `_rift.fault` rolls
// (runtime/imposter/rift_fault.h).
#include "runtime/base/dice.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>
#include <vector>

#include "frontends/rift_fault.h"
#include "runtime/imposter/rift_fault.h"

namespace rift {
namespace {

TEST(Dice, ASeedGivesTheSameSequence) {
  Dice a(42), b(42), c(43);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const uint64_t x = a.next();
    EXPECT_EQ(x, b.next());
    differs |= x != c.next();
  }
  EXPECT_TRUE(differs);
}

TEST(Dice, UnitAndBetweenStayInRange) {
  Dice dice(7);
  bool low = false, high = false;
  for (int i = 0; i < 10000; ++i) {
    const double u = dice.unit();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    const int64_t n = dice.between(3, 5);
    ASSERT_GE(n, 3);
    ASSERT_LE(n, 5);
    low |= n == 3;
    high |= n == 5;
  }
  EXPECT_TRUE(low && high);  // both ends included
  EXPECT_EQ(dice.between(9, 2), 9);
}

TEST(Dice, ThreadsShareOneSequenceWithoutLosingRolls) {
  Dice shared(5), alone(5);
  std::vector<uint64_t> seen[4];
  std::vector<std::thread> threads;
  for (auto& list : seen) {
    threads.emplace_back([&] {
      for (int i = 0; i < 1000; ++i) list.push_back(shared.next());
    });
  }
  for (auto& thread : threads) thread.join();
  std::vector<uint64_t> all, expected;
  for (auto& list : seen) all.insert(all.end(), list.begin(), list.end());
  for (int i = 0; i < 4000; ++i) expected.push_back(alone.next());
  std::sort(all.begin(), all.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(all, expected);
}

ir::ResponseFault parse(const char* json) {
  auto parsed = frontends::parse_rift_fault(ir::Json::parse(json));
  return *std::get<std::optional<ir::ResponseFault>>(parsed);
}

TEST(FaultRoll, ProbabilitiesZeroAndOne) {
  Dice dice(1);
  const auto always = parse(R"({"_rift": {"fault": {"latency": {"ms": 20}, "tcp": "empty",
                                                     "error": {}}}})");
  for (int i = 0; i < 50; ++i) {
    const FaultRoll roll = roll_fault(always, dice);
    EXPECT_EQ(roll.latency.count(), 20);
    ASSERT_NE(roll.tcp, nullptr);
    EXPECT_EQ(roll.error, nullptr);  // tcp wins
  }
  const auto never = parse(R"({"_rift": {"fault": {"latency": {"ms": 20, "probability": 0},
                                                    "tcp": {"type": "reset", "probability": 0},
                                                    "error": {"probability": 0}}}})");
  for (int i = 0; i < 50; ++i) {
    const FaultRoll roll = roll_fault(never, dice);
    EXPECT_EQ(roll.latency.count(), 0);
    EXPECT_EQ(roll.tcp, nullptr);
    EXPECT_EQ(roll.error, nullptr);
  }
}

TEST(FaultRoll, ErrorDefaultsAndTcpBytes) {
  const auto fault = parse(R"({"_rift": {"fault": {"error": {"body": "b", "headers": {"X": "1"}},
                                                    "tcp": {"probability": 0.5, "type": "garbage"}}}})");
  EXPECT_EQ(error_fault_response(*fault.error),
            ir::Json::parse(R"({"statusCode": 503, "headers": {"X": "1", "x-rift-fault": "error"},
                                "body": "b"})"));
  const http::Reply garbage = tcp_fault_reply(*fault.tcp);
  EXPECT_EQ(garbage.bytes, std::string("\x00\xff\xfe\xfd\x13\x37\xde\xad\xbe\xef", 10));
  EXPECT_TRUE(garbage.close);
}

TEST(FaultShape, BadShapesNameTheField) {
  const auto error_of = [](const char* json) {
    auto parsed = frontends::parse_rift_fault(ir::Json::parse(json));
    return std::get<MbError>(parsed).message;
  };
  EXPECT_NE(error_of(R"({"_rift": {"fault": {"latency": {"probability": -0.1}}}})")
                .find("'_rift.fault.latency.probability'"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"_rift": {"fault": {"tcp": {"probability": 1, "type": "x"}}}})")
                .find("'_rift.fault.tcp.type'"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"_rift": {"fault": {"error": {"headers": {"X": 1}}}}})")
                .find("'_rift.fault.error.headers.X'"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"_rift": {"fault": []}})").find("'_rift.fault'"), std::string::npos);
}

}  // namespace
}  // namespace rift
