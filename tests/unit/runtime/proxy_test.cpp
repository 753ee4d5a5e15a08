// The proxy's pure parts: origin URLs, what is forwarded, what is captured, the predicates a
// recording is filed under, and where the recording goes (docs/mountebank-semantics.md §5.6).
#include <gtest/gtest.h>

#include "frontends/mountebank_json.h"
#include "runtime/proxy/capture.h"
#include "runtime/proxy/origin_client.h"
#include "runtime/proxy/outbound_request.h"
#include "runtime/proxy/predicate_generators.h"
#include "runtime/proxy/recorder.h"

namespace rift::proxy {
namespace {

ir::Json json(const char* text) {
  return ir::Json::parse(text);
}

TEST(ProxyOrigin, ParsesSchemeHostAndPortWithDefaults) {
  auto plain = parse_origin("http://localhost");
  ASSERT_TRUE(plain);
  EXPECT_FALSE(plain->tls);
  EXPECT_EQ(plain->host, "localhost");
  EXPECT_EQ(plain->port, "80");
  auto tls = parse_origin("HTTPS://[::1]:8443/");
  ASSERT_TRUE(tls);
  EXPECT_TRUE(tls->tls);
  EXPECT_EQ(tls->host, "::1");
  EXPECT_EQ(tls->port, "8443");
  EXPECT_FALSE(parse_origin("ftp://host"));
  EXPECT_FALSE(parse_origin("localhost:80"));
}

TEST(ProxyOutbound, PointsHostAtTheOriginKeepsRepeatsAndAddsALength) {
  http::Message message;
  message.method = "POST";
  message.target = "/PATH?WSDL";
  message.headers = {{"Host", "mock:1"}, {"X-Rep", "1"}, {"X-Rep", "2"}, {"x-case", "a"}};
  message.body = "héllo";
  const auto origin = *parse_origin("http://origin:8080");
  auto out = outbound_request(message, json(R"({"injectHeaders":{"X-Case":"b"}})"), origin);
  EXPECT_EQ(out.target, "/PATH?WSDL");
  const KeyValues expected = {{"host", "origin:8080"}, {"X-Rep", "1"},
                              {"X-Rep", "2"},          {"X-Case", "b"},
                              {"Content-Length", "6"}, {"Connection", "keep-alive"}};
  EXPECT_EQ(out.headers, expected);
}

TEST(ProxyOutbound, AnInjectedHostWinsAndTheDefaultPortIsOmitted) {
  http::Message message;
  message.method = "GET";
  message.target = "/";
  message.headers = {{"Connection", "close"}};
  auto out = outbound_request(message, json("{}"), *parse_origin("https://origin"));
  EXPECT_EQ(out.headers, (KeyValues{{"Connection", "close"}, {"host", "origin"}}));
  out = outbound_request(message, json(R"({"injectHeaders":{"HOST":"x"}})"),
                         *parse_origin("https://origin"));
  EXPECT_EQ(out.headers, (KeyValues{{"Connection", "close"}, {"HOST", "x"}}));
}

TEST(ProxyCapture, ParsesJsonKeepsRepeatsAndTime) {
  OriginResponse response{
      201,
      {{"Content-Type", "application/json"}, {"Set-Cookie", "a"}, {"Set-Cookie", "b"}},
      R"({"n": 123})"};
  const ir::Json out = capture(response, 7);
  EXPECT_EQ(out, json(R"({"statusCode":201,
      "headers":{"Content-Type":"application/json","Set-Cookie":["a","b"]},
      "body":{"n":123},"_mode":"text","_proxyResponseTime":7})"));
}

TEST(ProxyCapture, BinaryByTypeOrEncodingIsBase64) {
  OriginResponse bytes{200, {{"content-type", "image/png"}}, std::string("\0\1\2", 3)};
  EXPECT_EQ(capture(bytes, 0)["body"], "AAEC");
  EXPECT_EQ(capture(bytes, 0)["_mode"], "binary");
  OriginResponse gzip{200, {{"Content-Encoding", "gzip"}}, "xyz"};
  EXPECT_EQ(capture(gzip, 0)["_mode"], "binary");
  OriginResponse text{200, {{"Content-Type", "text/plain"}}, "plain"};
  EXPECT_EQ(capture(text, 0)["body"], "plain");
}

ir::Json generated(const char* request, const char* generators) {
  auto out = generate_predicates(json(request), json(generators));
  EXPECT_TRUE(std::holds_alternative<ir::Json>(out));
  return std::holds_alternative<ir::Json>(out) ? std::get<ir::Json>(out) : ir::Json();
}

constexpr const char* kRequest = R"({"method":"GET","path":"/a","query":{"q":"1","r":["x","y"]},
    "headers":{"X-Id":"7"},"body":"{\"id\":42,\"n\":[1,2]}"})";

TEST(ProxyGenerators, TrueGivesDeepEqualsAndKeysGiveEquals) {
  EXPECT_EQ(generated(kRequest, R"([{"matches":{"method":true,"query":{"q":true,"gone":true}},
                                     "caseSensitive":true}])"),
            json(R"([{"caseSensitive":true,"deepEquals":{"method":"GET"}},
                     {"caseSensitive":true,"equals":{"query":{"q":"1"}}}])"));
  // Header keys are looked up by exact spelling.
  EXPECT_EQ(generated(kRequest, R"([{"matches":{"headers":{"x-id":true}}}])"),
            json(R"([{"equals":{"headers":{}}}])"));
}

TEST(ProxyGenerators, SelectorsAndIgnore) {
  EXPECT_EQ(generated(kRequest, R"([{"matches":{"body":true},"jsonpath":{"selector":"$.id"}}])"),
            json(R"([{"jsonpath":{"selector":"$.id"},"deepEquals":{"body":42}}])"));
  EXPECT_EQ(generated(kRequest, R"([{"matches":{"body":true},"jsonpath":{"selector":"$.n[*]"}}])"),
            json(R"([{"jsonpath":{"selector":"$.n[*]"},"deepEquals":{"body":[1,2]}}])"));
  EXPECT_EQ(generated(kRequest, R"([{"matches":{"body":true},"jsonpath":{"selector":"$.no"}}])"),
            json(R"([{"jsonpath":{"selector":"$.no"},"deepEquals":{"body":""}}])"));
  EXPECT_EQ(generated(kRequest, R"([{"matches":{"query":true},"ignore":{"query":["r"]}}])"),
            json(R"([{"deepEquals":{"query":{"q":"1"}}}])"));
}

TEST(ProxyGenerators, InjectNeedsJavaScript) {
  auto out = generate_predicates(json(kRequest), json(R"([{"inject":"r => []"}])"));
  ASSERT_TRUE(std::holds_alternative<MbError>(out));
  EXPECT_EQ(std::get<MbError>(out).code, "invalid injection");
}

TEST(ProxyGenerators, InjectedPredicatesTakeTheirGeneratorsPlace) {
  const ir::Json generators = json(R"([{"inject":"a"},{"matches":{"method":true}},
                                       {"inject":"b","matches":{"path":true}}])");
  EXPECT_EQ(injected_generators(generators), (std::vector<std::string>{"a", "b"}));
  auto out = generate_predicates(
      json(kRequest), generators,
      {json(R"([{"equals":{"path":"/a"}},{"exists":{"body":true}}])"), json("[]")});
  ASSERT_TRUE(std::holds_alternative<ir::Json>(out));
  EXPECT_EQ(std::get<ir::Json>(out), json(R"([{"equals":{"path":"/a"}},{"exists":{"body":true}},
                     {"deepEquals":{"method":"GET"}}])"));
}

std::vector<ir::Stub> stubs_of(const char* sources) {
  std::vector<ir::Stub> out;
  for (const auto& source : json(sources)) {
    out.push_back(std::get<ir::Stub>(frontends::parse_stub(source, {})));
  }
  return out;
}

std::vector<ir::Json> sources_of(const Recorded& recorded) {
  std::vector<ir::Json> out;
  for (const auto& stub : recorded.stubs) out.push_back(stub.source);
  return out;
}

constexpr const char* kStubs = R"([
  {"responses":[{"is":{"body":"first"}}]},
  {"responses":[{"proxy":{"to":"http://o"}}]},
  {"predicates":[{"deepEquals":{"path":"/a","method":"GET"}}],"responses":[{"is":{"body":"1"}}]}])";

TEST(ProxyRecorder, ProxyOnceGoesInFrontOfTheProxy) {
  auto recorded =
      record(stubs_of(kStubs), 1, "proxyOnce", json(R"([{"deepEquals":{"path":"/a"}}])"),
             json(R"({"is":{"body":"new"}})"));
  auto& done = std::get<Recorded>(recorded);
  EXPECT_EQ(
      sources_of(done)[1],
      json(R"({"predicates":[{"deepEquals":{"path":"/a"}}],"responses":[{"is":{"body":"new"}}]})"));
  EXPECT_EQ(done.keep, (std::vector<int>{0, -1, 1, 2}));
}

TEST(ProxyRecorder, ProxyAlwaysAppendsToALaterStubWithTheSamePredicatesInAnyKeyOrder) {
  auto recorded = record(stubs_of(kStubs), 1, "proxyAlways",
                         json(R"([{"deepEquals":{"method":"GET","path":"/a"}}])"),
                         json(R"({"is":{"body":"2"}})"));
  auto& done = std::get<Recorded>(recorded);
  ASSERT_EQ(done.stubs.size(), 3u);
  EXPECT_EQ(sources_of(done)[2]["responses"], json(R"([{"is":{"body":"1"}},{"is":{"body":"2"}}])"));
  EXPECT_EQ(done.keep, (std::vector<int>{0, 1, 2}));
  // No such stub after the proxy: a new one at the end (the first stub is before the proxy).
  recorded = record(stubs_of(kStubs), 1, "proxyAlways", json("[]"), json(R"({"is":{}})"));
  EXPECT_EQ(std::get<Recorded>(recorded).stubs.size(), 4u);
  EXPECT_EQ(std::get<Recorded>(recorded).keep, (std::vector<int>{0, 1, 2, -1}));
}

}  // namespace
}  // namespace rift::proxy
