#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_helpers.h"

namespace rift::frontends {
namespace {

using ::testing::ElementsAre;
using testing::imposter_errors;
using ::testing::IsEmpty;
using testing::json;
using testing::messages;

TEST(ImposterParser, MissingProtocol) {
  const auto errors = imposter_errors(json("{}"));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].to_json(),
            json(R"({"code":"bad data","message":"'protocol' is a required field"})"));
}

TEST(ImposterParser, UnsupportedProtocols) {
  EXPECT_THAT(messages(imposter_errors(json(R"({"protocol":"ftp"})"))),
              ElementsAre("the ftp protocol is not yet supported"));
  EXPECT_THAT(messages(imposter_errors(json(R"({"protocol":"gopher","port":4545})"))),
              ElementsAre("the gopher protocol is not yet supported"));
  EXPECT_THAT(messages(imposter_errors(json(R"({"protocol":null})"))),
              ElementsAre("the null protocol is not yet supported"));
}

TEST(ImposterParser, BadPortCombinesWithProtocolError) {
  EXPECT_THAT(messages(imposter_errors(json(R"({"port":"abc"})"))),
              ElementsAre("invalid value for 'port'", "'protocol' is a required field"));
  EXPECT_THAT(messages(imposter_errors(json(R"({"port":0,"protocol":"ftp"})"))),
              ElementsAre("invalid value for 'port'", "the ftp protocol is not yet supported"));
}

// docs/tcp.md: Mountebank's tcpValidator, the resolver's injection gate, binary mode's dry run.
TEST(ImposterParser, TcpImposters) {
  EXPECT_THAT(messages(imposter_errors(json(R"({"protocol":"tcp","mode":"TEXT"})"))),
              ElementsAre("'mode' must be one of ['text', 'binary']"));
  EXPECT_THAT(messages(imposter_errors(json(R"({"protocol":"tcp","mode":""})"))), IsEmpty());
  EXPECT_THAT(
      messages(imposter_errors(json(
          R"({"protocol":"tcp","endOfRequestResolver":{"inject":"function (d) { return true; }"}})"))),
      ElementsAre(
          "JavaScript injection is not allowed unless mb is run with the --allowInjection flag"));
  EXPECT_THAT(messages(imposter_errors(json(R"({"protocol":"tcp","mode":"binary","stubs":[
      {"predicates":[{"not":{"matches":{"data":"AQ"}}}],"responses":[{"is":{}}]}]})"))),
              ElementsAre("the matches predicate is not allowed in binary mode"));
  EXPECT_THAT(messages(imposter_errors(json(R"({"protocol":"tcp","mode":"binary","stubs":[
      {"predicates":[{"equals":{"data":"AQ=="},"jsonpath":{"selector":"$.a"}}],
       "responses":[{"is":{}}]}]})"))),
              ElementsAre("the jsonpath predicate parameter is not allowed in binary mode"));
}

TEST(ImposterParser, BinaryTcpPredicatesCompareDecodedData) {
  const auto parsed = parse_imposter(json(R"({"protocol":"tcp","mode":"binary","stubs":[
      {"predicates":[{"equals":{"data":"aGk="}}],"responses":[{"is":{"data":"AQ=="}}]}]})"),
                                     {});
  ASSERT_TRUE(std::holds_alternative<ir::Imposter>(parsed));
  const ir::Imposter& imposter = std::get<ir::Imposter>(parsed);
  EXPECT_EQ(imposter.mode, "binary");
  const ir::Predicate& predicate = imposter.stubs[0].predicates[0];
  EXPECT_EQ(predicate.fields["data"], "hi");
  EXPECT_TRUE(predicate.case_sensitive);
  // The source keeps what the user wrote: the admin API echoes it.
  EXPECT_EQ(imposter.stubs[0].source["predicates"][0]["equals"]["data"], "aGk=");
}

TEST(ImposterParser, PortValues) {
  for (const char* bad : {"0", "65536", "12.5", "\"12.5\"", "\"abc\"", "-1", "true", "null"}) {
    const ir::Json body = json((std::string(R"({"protocol":"http","port":)") + bad + "}").c_str());
    EXPECT_THAT(messages(imposter_errors(body)), ElementsAre("invalid value for 'port'")) << bad;
  }
  for (const auto& [text, port] : std::vector<std::pair<const char*, int>>{
           {"4545", 4545}, {"\"4545\"", 4545}, {"1", 1}, {"65535", 65535}, {"4545.0", 4545}}) {
    const ir::Json body = json((std::string(R"({"protocol":"http","port":)") + text + "}").c_str());
    auto result = parse_imposter(body, {});
    ASSERT_TRUE(std::holds_alternative<ir::Imposter>(result)) << text;
    EXPECT_EQ(std::get<ir::Imposter>(result).port, port);
  }
}

TEST(ImposterParser, MissingPortIsChosenByTheOs) {
  auto result = parse_imposter(json(R"({"protocol":"http"})"), {});
  ASSERT_TRUE(std::holds_alternative<ir::Imposter>(result));
  EXPECT_FALSE(std::get<ir::Imposter>(result).port.has_value());
}

TEST(ImposterParser, Settings) {
  auto result = parse_imposter(json(R"({
    "protocol": "http", "port": 4545, "name": "api", "recordRequests": true,
    "defaultResponse": {"statusCode": 404, "body": "none"}, "allowCORS": true,
    "host": "127.0.0.1", "ciphers": "ignored-for-http"})"),
                               {});
  ASSERT_TRUE(std::holds_alternative<ir::Imposter>(result));
  const auto& imposter = std::get<ir::Imposter>(result);
  EXPECT_EQ(imposter.protocol, "http");
  EXPECT_EQ(imposter.name, "api");
  EXPECT_TRUE(imposter.record_requests);
  EXPECT_EQ(imposter.default_response, json(R"({"statusCode": 404, "body": "none"})"));
  EXPECT_TRUE(imposter.allow_cors);
  EXPECT_EQ(imposter.host, "127.0.0.1");
  EXPECT_EQ(imposter.tls, ir::TlsOptions{});
  EXPECT_TRUE(imposter.stubs.empty());
}

TEST(ImposterParser, HttpsOptions) {
  auto result = parse_imposter(json(R"({
    "protocol": "https", "port": 4545, "key": "KEY", "cert": "CERT", "mutualAuth": true,
    "rejectUnauthorized": true, "ca": ["CA1", "CA2"], "ciphers": "ecdhe-rsa-aes128-gcm-sha256"})"),
                               {});
  ASSERT_TRUE(std::holds_alternative<ir::Imposter>(result));
  const auto& tls = std::get<ir::Imposter>(result).tls;
  EXPECT_EQ(tls.key, "KEY");
  EXPECT_EQ(tls.cert, "CERT");
  EXPECT_TRUE(tls.mutual_auth);
  EXPECT_TRUE(tls.reject_unauthorized);
  EXPECT_EQ(tls.ca, (std::vector<std::string>{"CA1", "CA2"}));
  EXPECT_EQ(tls.ciphers, "ECDHE-RSA-AES128-GCM-SHA256");
}

TEST(ImposterParser, HttpsEchoesCaAndRejectUnauthorizedAsGiven) {
  auto result = parse_imposter(
      json(R"({"protocol": "https", "mutualAuth": 1, "rejectUnauthorized": "yes", "ca": "CA"})"),
      {});
  ASSERT_TRUE(std::holds_alternative<ir::Imposter>(result));
  const auto& tls = std::get<ir::Imposter>(result).tls;
  EXPECT_TRUE(tls.mutual_auth);
  EXPECT_FALSE(tls.reject_unauthorized);  // only a boolean true rejects, as in Mountebank
  EXPECT_EQ(tls.reject_unauthorized_echo, "yes");
  EXPECT_EQ(tls.ca, (std::vector<std::string>{"CA"}));
  EXPECT_EQ(tls.ca_echo, "CA");
}

TEST(ImposterParser, HttpsDefaults) {
  auto result = parse_imposter(json(R"({"protocol": "https"})"), {});
  ASSERT_TRUE(std::holds_alternative<ir::Imposter>(result));
  EXPECT_EQ(std::get<ir::Imposter>(result).tls, ir::TlsOptions{});
}

TEST(ImposterParser, StubsMustBeAnArray) {
  EXPECT_THAT(messages(imposter_errors(json(R"({"protocol":"http","stubs":{}})"))),
              ElementsAre("'stubs' must be an array"));
  EXPECT_TRUE(imposter_errors(json(R"({"protocol":"http","stubs":null})")).empty());
}

TEST(ImposterParser, ReportsErrorsOfEveryStubInOrder) {
  const auto errors = imposter_errors(json(R"({"protocol":"http","stubs":[
    {"responses":[]},
    {"responses":[{"is":{}}]},
    {"responses":[{"is":{},"repeat":0}],"predicates":[{"bogus":{}}]},
    {"predicates":[{"bogus":1}],"responses":[{}]}]})"));
  EXPECT_THAT(messages(errors), ElementsAre("'responses' must be a non-empty array",
                                            "\"repeat\" field must be an integer greater than 0",
                                            "missing predicate"));
  EXPECT_EQ(errors[0].source, json(R"({"responses":[]})"));
  EXPECT_EQ(errors[2].source, json(R"({"bogus":1})"));
}

TEST(ImposterParser, ProtocolErrorsSkipStubValidation) {
  EXPECT_THAT(messages(imposter_errors(json(R"({"stubs":[{"responses":[]}]})"))),
              ElementsAre("'protocol' is a required field"));
}

TEST(ImposterParser, KeepsStubsAsEchoed) {
  auto result = parse_imposter(testing::imposter_with(json(R"([
    {"responses":[{"is":{"body":"x"}}],"extra":{"kept":true}}])")),
                               {});
  ASSERT_TRUE(std::holds_alternative<ir::Imposter>(result));
  const auto& stub = std::get<ir::Imposter>(result).stubs.at(0);
  EXPECT_EQ(stub.source.dump(), R"({"responses":[{"is":{"body":"x"}}],"extra":{"kept":true}})");
  ASSERT_EQ(stub.responses.size(), 1u);
  EXPECT_EQ(stub.responses[0].value, json(R"({"body":"x"})"));
  EXPECT_TRUE(stub.predicates.empty());
}

// POST /imposters moves the stubs out of the body it parsed: the IR and the errors must be those
// of the copying parse, and the body must keep its settings (what --datadir saves of it).
TEST(ImposterParser, MovingStubsParsesAsCopying) {
  const ir::Json stubs = json(R"([
    {"predicates":[{"equals":{"path":"/a"}}],"responses":[{"is":{"body":"a"}}]},
    {"responses":[{"_behaviors":{"wait":5},"is":{"statusCode":201}}]}])");
  const ir::Json original = testing::imposter_with(stubs);
  ir::Json body = original;
  auto copied = parse_imposter(original, {});
  auto moved = parse_imposter_moving_stubs(body, {});
  ASSERT_TRUE(std::holds_alternative<ir::Imposter>(copied));
  ASSERT_TRUE(std::holds_alternative<ir::Imposter>(moved));
  const auto& a = std::get<ir::Imposter>(copied);
  const auto& b = std::get<ir::Imposter>(moved);
  ASSERT_EQ(a.stubs.size(), 2u);
  ASSERT_EQ(b.stubs.size(), 2u);
  for (size_t i = 0; i < a.stubs.size(); ++i) {
    EXPECT_EQ(b.stubs[i].source, a.stubs[i].source);
    EXPECT_EQ(b.stubs[i].predicates.size(), a.stubs[i].predicates.size());
    EXPECT_EQ(b.stubs[i].responses.size(), a.stubs[i].responses.size());
  }
  EXPECT_EQ(b.port, 4545);
  EXPECT_EQ(body["protocol"], "http");
  EXPECT_EQ(body["port"], 4545);

  ir::Json bad = testing::imposter_with(json(R"([{"responses":[]},
    {"predicates":[{"matches":{"path":"("}}],"responses":[{"is":{}}]}])"));
  const ir::Json bad_copy = bad;
  auto bad_moved = parse_imposter_moving_stubs(bad, {});
  ASSERT_TRUE(std::holds_alternative<MbErrors>(bad_moved));
  const MbErrors expected = testing::imposter_errors(bad_copy);
  ASSERT_EQ(std::get<MbErrors>(bad_moved).size(), 2u);
  ASSERT_EQ(expected.size(), 2u);
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(std::get<MbErrors>(bad_moved)[i].to_json(), expected[i].to_json());
  }
}

}  // namespace
}  // namespace rift::frontends
