// Publishing a stub edit: the imposter's own settings survive it, and the plan it replaces is
// freed by the publishing thread once no reader holds it.
#include <gtest/gtest.h>

#include <memory>
#include <tuple>
#include <utility>

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

// Every field of the settings, as references: the structured bindings stop compiling when a
// field is added, so a new one must be added here, and then populated() must set it.
auto fields(ir::ImposterSettings& settings) {
  auto& [protocol, port, name, record_requests, default_response, allow_cors, host, tls, mode,
         end_of_request_resolver, flow_id_source, rift, enabled, default_forward, strict_behaviors,
         service_name, service_info] = settings;
  return std::tie(protocol, port, name, record_requests, default_response, allow_cors, host, tls,
                  mode, end_of_request_resolver, flow_id_source, rift, enabled, default_forward,
                  strict_behaviors, service_name, service_info);
}
auto fields(ir::TlsOptions& tls) {
  auto& [key, cert, mutual_auth, reject_unauthorized, ca, reject_unauthorized_echo, ca_echo,
         ciphers] = tls;
  return std::tie(key, cert, mutual_auth, reject_unauthorized, ca, reject_unauthorized_echo,
                  ca_echo, ciphers);
}

// An imposter with every setting other than its default.
ir::Imposter populated() {
  ir::Imposter config;
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
  config.tls.reject_unauthorized_echo = "yes";
  config.tls.ca_echo = "CA";
  config.tls.ciphers = "HIGH";
  config.mode = "binary";  // a tcp imposter's, kept like the rest
  config.end_of_request_resolver = ir::Json{{"inject", "function (data) { return true; }"}};
  config.flow_id_source.header = "X-Flow-Id";
  config.rift = ir::Json{{"flowState", {{"flowIdSource", "header:X-Flow-Id"}}}};
  config.enabled = false;
  config.default_forward = "http://127.0.0.1:1";
  config.strict_behaviors = true;
  config.service_name = "orders";
  config.service_info = ir::Json{{"team", "a"}};
  config.stubs = {stub_for("/old")};
  return config;
}

template <typename Tuple, size_t... I>
void expect_every_field_differs(const Tuple& set, const Tuple& defaults,
                                std::index_sequence<I...>) {
  auto differs = [](const auto& set_field, const auto& default_field, size_t index) {
    EXPECT_FALSE(set_field == default_field) << "field " << index << " is the default";
  };
  (differs(std::get<I>(set), std::get<I>(defaults), I), ...);
}

template <typename Struct>
void expect_every_field_set(Struct set) {
  Struct defaults;
  auto set_fields = fields(set);
  expect_every_field_differs(set_fields, fields(defaults),
                             std::make_index_sequence<std::tuple_size_v<decltype(set_fields)>>());
}

TEST(ImposterPublish, TheImposterOfTheseTestsHasEverySettingSet) {
  const ir::Imposter config = populated();
  expect_every_field_set<ir::ImposterSettings>(config);
  expect_every_field_set(config.tls);
}

TEST(ImposterPublish, StubEditsKeepEveryImposterSetting) {
  const ir::Imposter config = populated();
  auto imposter = make(config);

  ASSERT_EQ(imposter->set_stubs({stub_for("/new"), stub_for("/old")}, {-1, 0}), std::nullopt);
  const ir::Imposter& edited = imposter->config();
  EXPECT_EQ(static_cast<const ir::ImposterSettings&>(edited),
            static_cast<const ir::ImposterSettings&>(config));
  EXPECT_EQ(edited.stubs, (std::vector{stub_for("/new"), stub_for("/old")}));
  // And once more, from the edited imposter's settings.
  ASSERT_EQ(imposter->set_stubs({}, {}), std::nullopt);
  EXPECT_EQ(static_cast<const ir::ImposterSettings&>(imposter->config()),
            static_cast<const ir::ImposterSettings&>(config));
  EXPECT_TRUE(imposter->config().stubs.empty());
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
