// The reference Rift's extensions read from admin JSON: a stub's `space` and an imposter's
// `_rift.flowState` (docs/spaces.md).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_helpers.h"

namespace rift::frontends {
namespace {

using ::testing::ElementsAre;
using testing::imposter_errors;
using testing::json;
using testing::messages;
using testing::stub_errors;

ir::Imposter parsed(const char* text) {
  auto result = parse_imposter(json(text), ParseOptions{});
  EXPECT_EQ(result.index(), 0u) << text;
  return std::get<ir::Imposter>(std::move(result));
}

TEST(RiftBlock, FlowIdSources) {
  EXPECT_FALSE(parsed(R"({"protocol":"http"})").flow_id_source.header);
  EXPECT_FALSE(
      parsed(R"({"protocol":"http","_rift":{"flowState":{"flowIdSource":"imposter_port"}}})")
          .flow_id_source.header);
  const ir::Imposter by_header =
      parsed(R"({"protocol":"http","_rift":{"flowState":{"flowIdSource":"header:X-Flow-Id"}}})");
  EXPECT_EQ(by_header.flow_id_source.header, "X-Flow-Id");
  EXPECT_EQ(by_header.rift, json(R"({"flowState":{"flowIdSource":"header:X-Flow-Id"}})"));
  for (const char* source :
       {R"("Header:X")", R"("header: X")", R"("header:")", R"("port")", R"(7)", R"(null)"}) {
    const std::string body =
        std::string(R"({"protocol":"http","_rift":{"flowState":{"flowIdSource":)") + source + "}}}";
    const auto errors = imposter_errors(json(body.c_str()));
    ASSERT_EQ(errors.size(), 1u) << source;
    EXPECT_EQ(errors[0].code, "bad data");
    EXPECT_NE(errors[0].message.find("flowIdSource"), std::string::npos) << source;
  }
}

TEST(RiftBlock, FlowStoreChecksAreTheReferences) {
  EXPECT_THAT(
      messages(imposter_errors(
          json(R"({"protocol":"http","_rift":{"flowState":{"backend":"etcd","ttlSeconds":0}}})"))),
      ElementsAre("Flow store configuration error: flowState.backend is \"etcd\" but no such "
                  "backend exists (expected \"inmemory\" or \"redis\")",
                  "Flow store configuration error: flowState.ttlSeconds must be >= 1 (got 0); a "
                  "non-positive TTL would expire every write immediately"));
  EXPECT_THAT(messages(imposter_errors(json(R"({"protocol":"http","_rift":[]})"))),
              ElementsAre("'_rift' must be an object"));
  EXPECT_THAT(
      messages(imposter_errors(json(
          R"({"protocol":"http","_rift":{"flowState":{"backend":"redis","ttlSeconds":60}}})"))),
      ElementsAre("Flow store configuration error: flowState.backend is \"redis\" but no redis "
                  "config block was provided"));
  parsed(R"({"protocol":"http","_rift":{"flowState":{"backend":"redis","ttlSeconds":60,
             "redis":{"url":"redis://127.0.0.1:6379"}}}})");
}

TEST(RiftBlock, StubSpaces) {
  auto stub = parse_stub(json(R"({"space":"team-a","responses":[{"is":{}}]})"), ParseOptions{});
  ASSERT_EQ(stub.index(), 0u);
  EXPECT_EQ(std::get<ir::Stub>(stub).space, "team-a");
  EXPECT_EQ(std::get<ir::Stub>(stub).source["space"], "team-a");  // echoed as given
  auto global = parse_stub(json(R"({"responses":[{"is":{}}]})"), ParseOptions{});
  EXPECT_FALSE(std::get<ir::Stub>(global).space);
  EXPECT_THAT(messages(stub_errors(json(R"({"space":1,"responses":[{"is":{}}]})"))),
              ElementsAre("'space' must be a string"));
  EXPECT_THAT(messages(stub_errors(json(R"({"space":"a\u0007b","responses":[{"is":{}}]})"))),
              ElementsAre("a space id may not contain control characters"));
  // Any other text is an id, the empty one too.
  EXPECT_EQ(std::get<ir::Stub>(
                parse_stub(json(R"({"space":"","responses":[{"is":{}}]})"), ParseOptions{}))
                .space,
            "");
}

}  // namespace
}  // namespace rift::frontends
