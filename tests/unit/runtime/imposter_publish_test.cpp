// Publishing a stub edit: the imposter's own settings survive it, and the plan it replaces is
// freed by the publishing thread once no reader holds it.
#include <gtest/gtest.h>

#include <memory>

#include "runtime/imposter/imposter.h"

namespace rift {
namespace {

ir::Stub stub_for(const std::string& path) {
  ir::Predicate predicate;
  predicate.op = ir::Op::kEquals;
  predicate.fields = {{"path", path}};
  ir::Stub out;
  out.predicates.push_back(std::move(predicate));
  ir::Response response;
  response.value = ir::Json::object();
  out.responses.push_back(response);
  return out;
}

std::shared_ptr<Imposter> make(ir::Imposter config) {
  auto created = Imposter::create(std::move(config), ServingOptions{});
  EXPECT_TRUE(std::holds_alternative<std::shared_ptr<Imposter>>(created));
  return std::get<std::shared_ptr<Imposter>>(created);
}

TEST(ImposterPublish, StubEditsKeepEveryImposterSetting) {
  ir::Imposter config;  // every field set to something other than its default
  config.protocol = "https";
  config.port = 4545;
  config.name = "orders";
  config.record_requests = true;
  config.default_response = ir::Json{{"statusCode", 404}};
  config.allow_cors = true;
  config.host = "127.0.0.1";
  config.tls.key = "KEY";
  config.tls.cert = "CERT";
  config.tls.mutual_auth = true;
  config.tls.reject_unauthorized = true;
  config.tls.ca = std::vector<std::string>{"CA"};
  config.tls.ciphers = "HIGH";
  config.stubs = {stub_for("/old")};
  auto imposter = make(config);

  ASSERT_EQ(imposter->set_stubs({stub_for("/new"), stub_for("/old")}, {-1, 0}), std::nullopt);
  ir::Imposter expected = config;
  expected.stubs = {stub_for("/new"), stub_for("/old")};
  EXPECT_EQ(imposter->config(), expected);
}

TEST(ImposterPublish, AReplacedPlanNobodyHoldsIsFreedByThePublish) {
  ir::Imposter config;
  config.protocol = "http";
  config.port = 4545;
  auto imposter = make(config);
  std::weak_ptr<const PlanSnapshot> first = imposter->snapshot();
  ASSERT_EQ(imposter->set_stubs({stub_for("/a")}, {}), std::nullopt);
  EXPECT_TRUE(first.expired());
}

TEST(ImposterPublish, AReplacedPlanAReaderHoldsLivesUntilAPublishAfterItsRelease) {
  ir::Imposter config;
  config.protocol = "http";
  config.port = 4545;
  auto imposter = make(config);
  auto held = imposter->snapshot();  // a worker in the middle of a request
  std::weak_ptr<const PlanSnapshot> watched = held;
  ASSERT_EQ(imposter->set_stubs({stub_for("/a")}, {}), std::nullopt);
  EXPECT_FALSE(watched.expired());
  EXPECT_EQ(held->version, 1u);  // still whole for the reader
  held.reset();
  // The reader let go, but freeing is the publisher's job: the plan waits for the next publish.
  EXPECT_FALSE(watched.expired());
  ASSERT_EQ(imposter->set_stubs({stub_for("/b")}, {}), std::nullopt);
  EXPECT_TRUE(watched.expired());
}

}  // namespace
}  // namespace rift
