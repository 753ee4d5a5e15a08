// The admin route table: the one list of endpoints, and the same answer whether a call comes
// through the HTTP listener (AdminApi::handle) or in process (AdminApi::call).
#include <gtest/gtest.h>

#include <string>

#include "runtime/admin/admin_api.h"
#include "runtime/admin/routes.h"
#include "runtime/base/logger.h"
#include "runtime/http/server.h"
#include "runtime/imposter/registry.h"
#include "runtime/options/options.h"

namespace rift {
namespace {

struct WireAnswer {
  int status = 0;
  std::string head;
  std::string body;
};

WireAnswer parse_wire(const std::string& bytes) {
  WireAnswer answer;
  const size_t end = bytes.find("\r\n\r\n");
  answer.head = bytes.substr(0, end);
  answer.body = end == std::string::npos ? "" : bytes.substr(end + 4);
  answer.status = std::stoi(bytes.substr(9, 3));
  return answer;
}

class AdminRoutesTest : public ::testing::Test {
 protected:
  AdminReply call(std::string method, std::string target, std::string body = "") {
    return server_.call_on_control([&] {
      return admin_.call(AdminRequest{std::move(method), std::move(target), std::move(body), {}});
    });
  }

  WireAnswer http(std::string method, std::string target, std::string body = "") {
    http::Message message;
    message.method = std::move(method);
    message.target = std::move(target);
    message.body = std::move(body);
    std::string bytes;
    server_.call_on_control([&] {
      admin_.handle(std::move(message), [&bytes](http::Reply reply) { bytes = reply.bytes; });
      return 0;
    });
    return parse_wire(bytes);
  }

  int create_imposter() {
    const AdminReply created =
        call("POST", "/imposters",
             R"({"protocol":"http","stubs":[{"predicates":[{"equals":{"path":"/a"}}],)"
             R"("responses":[{"is":{"body":"a"}}]}]})");
    EXPECT_EQ(created.status, 201) << created.body;
    return ir::Json::parse(created.body)["port"].get<int>();
  }

  Options options_;
  http::Server server_{1};
  Logger logger_{LogLevel::kError, ""};
  Registry registry_{server_, ServingOptions{}, http::Limits{}, "127.0.0.1"};
  AdminApi admin_{registry_, options_, logger_};
};

TEST_F(AdminRoutesTest, EveryRowAnswersOptionsOnItsPath) {
  for (const admin::Route& route : admin::routes()) {
    std::string target(route.pattern);
    for (const char* parameter : {":id", ":stubIndex"}) {
      if (auto at = target.find(parameter); at != std::string::npos) {
        target.replace(at, std::string_view(parameter).size(), "1");
      }
    }
    const AdminReply reply = call("OPTIONS", target);
    EXPECT_EQ(reply.status, 200) << route.method << " " << route.pattern;
  }
}

std::string express_404(std::string_view message) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<title>Error</title>\n</head>\n<body>\n<pre>" +
         std::string(message) + "</pre>\n</body>\n</html>\n";
}

TEST_F(AdminRoutesTest, AnUnknownPathOrMethodIsExpressIs404) {
  EXPECT_EQ(call("GET", "/nope").body, express_404("Cannot GET /nope"));
  EXPECT_EQ(call("PATCH", "/imposters").status, 404);
  EXPECT_EQ(call("PATCH", "/imposters").body, express_404("Cannot PATCH /imposters"));
  // Express's page: the path through encodeurl, then HTML-escaped.
  EXPECT_EQ(call("GET", "/a<b>&'c%zz%41\"").body,
            express_404("Cannot GET /a%3Cb%3E&amp;&#39;c%25zz%41%22"));
  EXPECT_EQ(call("OPTIONS", "*").body, express_404("Cannot OPTIONS *"));
  // An absolute-form target is routed by its path (RFC 9112 §3.2.2).
  EXPECT_EQ(call("GET", "http://localhost:2525/imposters?x=1").status, 200);
  EXPECT_EQ(call("GET", "http://localhost:2525/nope").body, express_404("Cannot GET /nope"));
  // Empty segments are not segments: "//imposters/" is /imposters.
  EXPECT_EQ(call("GET", "//imposters/").status, 200);
}

TEST_F(AdminRoutesTest, ARouteOnAnImposterThatDoesNotExistIsNoSuchResource) {
  const AdminReply reply = call("GET", "/imposters/4999");
  EXPECT_EQ(reply.status, 404);
  EXPECT_NE(reply.body.find("no such resource"), std::string::npos) << reply.body;
  EXPECT_EQ(call("PUT", "/imposters/abc/stubs", R"({"stubs":[]})").status, 404);
  // DELETE of an imposter that is not there is 200 {}, as Mountebank.
  EXPECT_EQ(call("DELETE", "/imposters/4999").body, "{}");
}

// Each call runs twice, in process then over the listener, so the list holds calls whose second
// run answers as the first did.
TEST_F(AdminRoutesTest, TheListenerAndAnInProcessCallGetTheSameStatusAndBody) {
  const int port = create_imposter();
  const std::string one = "/imposters/" + std::to_string(port);
  const struct {
    const char* method;
    std::string target;
    std::string body;
  } calls[] = {
      {"GET", "/imposters", ""},
      {"GET", one + "?replayable=true", ""},
      {"PUT", one + "/stubs", R"({"stubs":[{"responses":[{"is":{"statusCode":204}}]}]})"},
      {"PUT", one + "/stubs/0", R"({"responses":[{"is":{"body":"x"}}]})"},
      {"DELETE", one + "/stubs/9", ""},
      {"PUT", one + "/stubs/5", R"({"responses":[]})"},
      {"DELETE", one + "/savedRequests", ""},
      {"POST", "/imposters", "{not json"},
      {"GET", "/logs?startIndex=0", ""},
      {"GET", "/nope", ""},
  };
  for (const auto& each : calls) {
    const AdminReply direct = call(each.method, each.target, each.body);
    const WireAnswer wire = http(each.method, each.target, each.body);
    EXPECT_EQ(direct.status, wire.status) << each.method << " " << each.target;
    EXPECT_EQ(direct.body, wire.body) << each.method << " " << each.target;
    if (!direct.content_type.empty()) {
      EXPECT_NE(wire.head.find("Content-Type: " + direct.content_type), std::string::npos);
    }
  }
}

TEST_F(AdminRoutesTest, HeadAnswersAGetRowWithoutTheBody) {
  const WireAnswer head = http("HEAD", "/imposters");
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.body, "");
  EXPECT_NE(head.head.find("Content-Length: "), std::string::npos);
  EXPECT_EQ(head.head.find("Content-Length: 0\r\n"), std::string::npos) << head.head;
}

TEST_F(AdminRoutesTest, AFrozenMockRefusesChangesButExplains) {
  const int port = create_imposter();
  options_.frozen = true;
  const std::string one = "/imposters/" + std::to_string(port);
  EXPECT_EQ(call("POST", "/imposters", R"({"protocol":"http"})").status, 405);
  EXPECT_EQ(call("DELETE", one).status, 405);
  EXPECT_EQ(call("GET", one).status, 200);
  const AdminReply explained = call("POST", one + "/explain", R"({"method":"GET","path":"/a"})");
  EXPECT_EQ(explained.status, 200) << explained.body;
}

}  // namespace
}  // namespace rift
