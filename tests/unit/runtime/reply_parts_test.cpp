// A rendered HTTP/1.1 reply taken apart for an h2 stream (runtime/http/reply_parts.h).
#include "runtime/http/reply_parts.h"

#include "gtest/gtest.h"

namespace rift::http {
namespace {

using Headers = std::vector<std::pair<std::string, std::string>>;

TEST(ReplyParts, KeepsStatusHeadersAndBody) {
  auto parts = split_reply(
      "HTTP/1.1 201 Created\r\nX-Order: 7\r\nContent-Length: 7\r\nConnection: keep-alive\r\n"
      "Keep-Alive: timeout=5\r\n\r\ncreated");
  ASSERT_TRUE(parts);
  EXPECT_EQ(parts->status, 201);
  EXPECT_EQ(parts->headers, (Headers{{"x-order", "7"}, {"content-length", "7"}}));
  EXPECT_EQ(parts->body, "created");
}

TEST(ReplyParts, DechunksAndDropsTheFraming) {
  auto parts = split_reply(
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-A:  b \r\n\r\n"
      "5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n");
  ASSERT_TRUE(parts);
  EXPECT_EQ(parts->headers, (Headers{{"x-a", "b"}}));
  EXPECT_EQ(parts->body, "hello world");
}

TEST(ReplyParts, RefusesWhatIsNoWholeReply) {
  EXPECT_FALSE(split_reply("HTTP/1.1 200 OK\r\nX: y\r\n"));
  EXPECT_FALSE(split_reply("HTTP/1.1 2x0 OK\r\n\r\n"));
  EXPECT_FALSE(split_reply("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel"));
  EXPECT_FALSE(split_reply("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"));
}

}  // namespace
}  // namespace rift::http
