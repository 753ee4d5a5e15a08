#include "runtime/imposter/response_renderer.h"

#include <gtest/gtest.h>

namespace rift {
namespace {

WireResponse render(const ir::Json& is, std::optional<ir::Json> defaults = std::nullopt,
                    WireContext context = {}) {
  auto result = render_response(is, defaults, context);
  EXPECT_TRUE(std::holds_alternative<WireResponse>(result));
  return std::get<WireResponse>(result);
}

std::string wire(const ir::Json& is, std::optional<ir::Json> defaults = std::nullopt,
                 WireContext context = {}) {
  return render(is, std::move(defaults), std::move(context)).serialize("D");
}

TEST(ResponseRenderer, EmptyResponseIsMountebanksDefault) {
  EXPECT_EQ(wire(ir::Json::object()),
            "HTTP/1.1 200 OK\r\nConnection: close\r\nDate: D\r\nTransfer-Encoding: chunked\r\n\r\n"
            "0\r\n\r\n");
}

TEST(ResponseRenderer, StatusHeadersAndChunkedBody) {
  EXPECT_EQ(wire({{"statusCode", 400}, {"headers", {{"X-Test", "v"}}}, {"body", "b"}}),
            "HTTP/1.1 400 Bad Request\r\nX-Test: v\r\nConnection: close\r\nDate: D\r\n"
            "Transfer-Encoding: chunked\r\n\r\n1\r\nb\r\n0\r\n\r\n");
}

TEST(ResponseRenderer, ContentLengthIsRecomputedAndKeepAliveHonoured) {
  auto response = render({{"headers", {{"CONNECTION", "Keep-Alive"}, {"Content-Length", 852}}},
                          {"body", "h\xc3\xa9llo"}});
  EXPECT_FALSE(response.close);
  EXPECT_EQ(response.serialize("D"),
            "HTTP/1.1 200 OK\r\nCONNECTION: Keep-Alive\r\nContent-Length: 6\r\nDate: D\r\n\r\n"
            "h\xc3\xa9llo");
}

TEST(ResponseRenderer, DefaultsFillMissingFieldsButHeadersAreNotMerged) {
  const ir::Json defaults = {
      {"statusCode", 404}, {"headers", {{"X-Default", "1"}}}, {"body", "Not found"}};
  EXPECT_NE(wire({{"body", "x"}}, defaults).find("404 Not Found"), std::string::npos);
  EXPECT_NE(wire({{"body", "x"}}, defaults).find("X-Default: 1"), std::string::npos);
  const std::string own = wire({{"statusCode", 500}, {"headers", ir::Json::object()}}, defaults);
  EXPECT_EQ(own.find("X-Default"), std::string::npos);
  EXPECT_NE(own.find("Not found"), std::string::npos);  // "" body falls through to the default
}

TEST(ResponseRenderer, ObjectBodiesAreFourSpaceJson) {
  const std::string out = wire({{"body", {{"a", nullptr}, {"b", {1, 2}}}}});
  EXPECT_NE(out.find("{\n    \"a\": null,\n    \"b\": [\n        1,\n        2\n    ]\n}"),
            std::string::npos);
}

TEST(ResponseRenderer, BinaryModeDecodesBase64IgnoringNoise) {
  const std::string out =
      wire({{"_mode", "binary"}, {"headers", {{"Content-Length", 0}}}, {"body", "AAEC\nAw=="}});
  EXPECT_EQ(out.substr(out.size() - 4), std::string("\x00\x01\x02\x03", 4));
  EXPECT_NE(out.find("Content-Length: 4"), std::string::npos);
}

TEST(ResponseRenderer, HeadAndNoContentCarryNoBody) {
  WireContext head;
  head.head = true;
  EXPECT_EQ(wire({{"body", "x"}}, std::nullopt, head),
            "HTTP/1.1 200 OK\r\nConnection: close\r\nDate: D\r\n\r\n");
  EXPECT_EQ(wire({{"statusCode", 204}, {"body", "x"}}),
            "HTTP/1.1 204 No Content\r\nConnection: close\r\nDate: D\r\n\r\n");
}

TEST(ResponseRenderer, Http10IsCloseDelimited) {
  WireContext old;
  old.http10 = true;
  auto response =
      render({{"headers", {{"Connection", "keep-alive"}}}, {"body", "x"}}, std::nullopt, old);
  EXPECT_TRUE(response.close);
  EXPECT_EQ(response.serialize("D"),
            "HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nDate: D\r\n\r\nx");
}

TEST(ResponseRenderer, ArrayHeadersBecomeOneLineEach) {
  const std::string out = wire({{"headers", {{"Set-Cookie", {"a=1", "b=2"}}}}});
  EXPECT_NE(out.find("Set-Cookie: a=1\r\nSet-Cookie: b=2\r\n"), std::string::npos);
}

TEST(ResponseRenderer, StringStatusCodesAndInvalidOnes) {
  EXPECT_NE(wire({{"statusCode", "201"}}).find("201 Created"), std::string::npos);
  auto invalid = render_response({{"statusCode", "abc"}}, std::nullopt, {});
  EXPECT_TRUE(std::holds_alternative<MbError>(invalid));
  auto error = render_error(std::get<MbError>(invalid), {});
  EXPECT_EQ(error.status, 500);
}

// What Node 20 sends for Mountebank's `body.toString()` and `writeHead(statusCode)`.
TEST(ResponseRenderer, ScalarsAreConvertedAsJavaScriptDoes) {
  const auto body_of = [](const ir::Json& is) {
    const std::string out = wire(is);
    return out.substr(out.find("\r\n\r\n") + 4);
  };
  EXPECT_EQ(body_of({{"body", 1e-7}}), "4\r\n1e-7\r\n0\r\n\r\n");
  EXPECT_EQ(body_of({{"body", 0.000001}}), "8\r\n0.000001\r\n0\r\n\r\n");
  EXPECT_EQ(body_of({{"body", 1e21}}), "5\r\n1e+21\r\n0\r\n\r\n");
  EXPECT_EQ(body_of({{"body", false}}), "0\r\n\r\n");  // `body || default.body || ''`
  EXPECT_EQ(wire({{"body", 0}}, ir::Json{{"body", false}}).find("false"), std::string::npos);
  EXPECT_NE(wire({{"headers", {{"X-N", 1e-7}}}}).find("X-N: 1e-7\r\n"), std::string::npos);
  for (const ir::Json& status : {ir::Json(" 201 "), ir::Json("201.7"), ir::Json(201.7),
                                 ir::Json("0xC9"), ir::Json::array({201})}) {
    EXPECT_NE(wire({{"statusCode", status}}).find("201 Created"), std::string::npos) << status;
  }
  EXPECT_NE(wire({{"statusCode", 0}}).find("200 OK"), std::string::npos);  // falsy: 200
  EXPECT_NE(wire({{"statusCode", ""}}, ir::Json{{"statusCode", 404}}).find("404 Not Found"),
            std::string::npos);
  EXPECT_TRUE(std::holds_alternative<MbError>(render_response({{"statusCode", "201abc"}}, {}, {})));
  EXPECT_TRUE(std::holds_alternative<MbError>(render_response({{"statusCode", true}}, {}, {})));
}

TEST(ResponseRenderer, OwnDateHeaderIsKept) {
  auto response = render({{"headers", {{"Date", "yesterday"}}}});
  EXPECT_FALSE(response.add_date);
}

}  // namespace
}  // namespace rift

namespace rift {
namespace {

TEST(ResponseRenderer, KeepAliveOptionDropsTheImplicitClose) {
  WireContext context;
  context.keep_alive_default = true;
  auto response = render({{"body", "x"}}, std::nullopt, context);
  EXPECT_FALSE(response.close);
  EXPECT_EQ(response.serialize("D").find("Connection"), std::string::npos);
  auto explicit_close = render({{"headers", {{"Connection", "close"}}}}, std::nullopt, context);
  EXPECT_TRUE(explicit_close.close);
}

}  // namespace
}  // namespace rift
