// docs/mountebank-semantics.md §3: the request model built from a wire message.
#include "runtime/http/request_builder.h"

#include <zlib.h>

#include "gtest/gtest.h"
#include "runtime/http/url_path.h"

namespace rift::http {
namespace {

Message message(std::string target, KeyValues headers = {}, std::string body = "") {
  Message out;
  out.method = "POST";
  out.target = std::move(target);
  out.headers = std::move(headers);
  out.body = std::move(body);
  out.remote_address = "::ffff:127.0.0.1";
  out.remote_port = 54321;
  return out;
}

std::string path_of(std::string target) {
  return build_request(message(std::move(target))).path;
}

std::string gzip(std::string_view text) {
  z_stream stream{};
  EXPECT_EQ(deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8,
                         Z_DEFAULT_STRATEGY),
            Z_OK);
  std::string out(deflateBound(&stream, text.size()) + 32, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  stream.avail_in = static_cast<uInt>(text.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&stream, Z_FINISH), Z_STREAM_END);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

TEST(RequestBuilderTest, CopiesMethodPeerAndHeaders) {
  const Request request =
      build_request(message("/x", {{"Host", "a"}, {"X-A", "1"}, {"x-a", "2"}, {"X-A", "3"}}));
  EXPECT_EQ(request.method, "POST");
  EXPECT_EQ(request.ip, "::ffff:127.0.0.1");
  EXPECT_EQ(request.request_from, "::ffff:127.0.0.1:54321");
  const KeyValues expected = {{"Host", "a"}, {"X-A", "1"}, {"x-a", "2"}, {"X-A", "3"}};
  EXPECT_EQ(request.headers, expected);
  EXPECT_EQ(request.body, "");
  EXPECT_FALSE(request.form);
}

TEST(RequestBuilderTest, HeaderBytesAreLatin1LikeNode) {
  const Request request = build_request(message("/", {{"X-Name", "caf\xE9"}}));
  EXPECT_EQ(request.headers[0].second, "caf\xC3\xA9");
}

TEST(RequestBuilderTest, QuerySplitsDecodesAndKeepsRepeats) {
  const Request request = build_request(message("/p?a=1&b=x+y&a=2&c&d=%20z%2B&&e=f=g#frag"));
  const KeyValues expected = {{"a", "1"}, {"b", "x y"}, {"a", "2"},
                              {"c", ""},  {"d", " z+"}, {"e", "f=g"}};
  EXPECT_EQ(request.query, expected);
  EXPECT_EQ(request.path, "/p");
}

TEST(RequestBuilderTest, QueryKeepsInvalidEscapesAndRepairsUtf8) {
  const Request request = build_request(message("/?a=%zz%4&b=%C3%A9&c=%FF"));
  const KeyValues expected = {{"a", "%zz%4"}, {"b", "\xC3\xA9"}, {"c", "\xEF\xBF\xBD"}};
  EXPECT_EQ(request.query, expected);
}

TEST(RequestBuilderTest, NoQueryGivesEmpty) {
  EXPECT_TRUE(build_request(message("/p")).query.empty());
  EXPECT_TRUE(build_request(message("/p?")).query.empty());
}

TEST(RequestBuilderTest, PathNormalization) {
  EXPECT_EQ(path_of("/"), "/");
  EXPECT_EQ(path_of("/a/b/"), "/a/b/");
  EXPECT_EQ(path_of("/a//b/"), "/a//b/");
  EXPECT_EQ(path_of("/a.json/.hidden/x..y"), "/a.json/.hidden/x..y");  // dots, no dot segment
  EXPECT_EQ(path_of("/a/./b/../c"), "/a/c");
  EXPECT_EQ(path_of("/a/b/.."), "/a/");
  EXPECT_EQ(path_of("/a/%2E%2e/b"), "/b");
  EXPECT_EQ(path_of("/../../x"), "/x");
  EXPECT_EQ(path_of("/a%20b/%7e"), "/a%20b/%7e");    // existing escapes untouched
  EXPECT_EQ(path_of("/caf\xC3\xA9"), "/caf%C3%A9");  // non-ASCII encoded
  EXPECT_EQ(path_of("/a\"b<c>`{}"), "/a%22b%3Cc%3E%60%7B%7D");
  EXPECT_EQ(path_of("/a\\b"), "/a/b");
  EXPECT_EQ(path_of("*"), "/*");
  EXPECT_EQ(path_of("http://example.com:8080/p/q?x=1"), "/p/q");
  EXPECT_EQ(path_of("http://example.com"), "/");
  // Mountebank quirk: a leading "//" makes the first segment a host.
  EXPECT_EQ(path_of("//x/y"), "/y");
}

TEST(RequestBuilderTest, TargetSplitKeepsRawQuery) {
  const TargetParts parts = split_target("/a/../b?x=%20&y#f");
  EXPECT_EQ(parts.path, "/b");
  EXPECT_EQ(parts.query, "x=%20&y");
}

TEST(RequestBuilderTest, GzipBodyIsDecompressed) {
  const Request request =
      build_request(message("/", {{"Content-Encoding", "gzip"}}, gzip("hello, gzip")));
  EXPECT_EQ(request.body, "hello, gzip");
}

TEST(RequestBuilderTest, CorruptGzipBodyIsAbsent) {
  std::string truncated = gzip("hello, gzip");
  truncated.resize(truncated.size() / 2);
  EXPECT_FALSE(build_request(message("/", {{"content-encoding", "gzip"}}, truncated)).body);
  EXPECT_FALSE(build_request(message("/", {{"Content-Encoding", "gzip"}}, "plain")).body);
}

TEST(RequestBuilderTest, OnlyExactEncodingsAreDecoded) {
  EXPECT_EQ(build_request(message("/", {{"Content-Encoding", "GZIP"}}, "raw")).body, "raw");
  EXPECT_EQ(build_request(message("/", {{"Content-Encoding", "deflate"}}, "raw")).body, "raw");
}

TEST(RequestBuilderTest, BrotliBodyIsDecompressedWhenAvailable) {
  // "hello" compressed with brotli at quality 11.
  const std::string compressed("\x0b\x02\x80\x68\x65\x6c\x6c\x6f\x03", 9);
  const Request request = build_request(message("/", {{"Content-Encoding", "br"}}, compressed));
  if (request.body) {
    EXPECT_EQ(*request.body, "hello");
  }
  EXPECT_FALSE(build_request(message("/", {{"Content-Encoding", "br"}}, "junk!")).body);
}

TEST(RequestBuilderTest, InvalidUtf8BodyIsRepaired) {
  EXPECT_EQ(build_request(message("/", {},
                                  "a\xFF"
                                  "b\xE2\x82"))
                .body,
            "a\xEF\xBF\xBD"
            "b\xEF\xBF\xBD");
}

TEST(RequestBuilderTest, FormParsedForUrlencodedBodies) {
  const Request request = build_request(
      message("/", {{"Content-Type", "application/x-www-form-urlencoded; charset=utf-8"}},
              "a=1&b=x+y&a=%21"));
  ASSERT_TRUE(request.form);
  const KeyValues expected = {{"a", "1"}, {"b", "x y"}, {"a", "!"}};
  EXPECT_EQ(*request.form, expected);
  EXPECT_EQ(request.body, "a=1&b=x+y&a=%21");
}

TEST(RequestBuilderTest, FormOnlyForNonEmptyExactMediaType) {
  EXPECT_FALSE(
      build_request(message("/", {{"Content-Type", "application/x-www-form-urlencoded"}}, ""))
          .form);
  EXPECT_FALSE(build_request(message("/", {{"Content-Type", "application/json"}}, "a=1")).form);
  EXPECT_FALSE(
      build_request(message("/", {{"Content-Type", "Application/X-WWW-Form-Urlencoded"}}, "a=1"))
          .form);
  EXPECT_FALSE(build_request(message("/", {}, "a=1")).form);
}

TEST(RequestBuilderTest, FormReadsTheDecompressedBody) {
  const Request request = build_request(message(
      "/", {{"Content-Type", "application/x-www-form-urlencoded"}, {"Content-Encoding", "gzip"}},
      gzip("k=v")));
  ASSERT_TRUE(request.form);
  EXPECT_EQ((*request.form)[0], (std::pair<std::string, std::string>("k", "v")));
}

}  // namespace
}  // namespace rift::http

namespace rift::http {
namespace {

// A connection refills one Request for all its messages: nothing of a longer earlier request
// (more headers, more query pairs, a form, a body) may remain in a shorter later one.
TEST(RequestBuilder, RefillingARequestLeavesNothingOfThePreviousOne) {
  Request request;
  build_request_into(message("/a/long/path/x?one=1&two=2&three=3",
                             {{"Content-Type", "application/x-www-form-urlencoded"},
                              {"X-Extra", "extra"},
                              {"X-More", "more"}},
                             "f=1&g=2"),
                     request);
  ASSERT_EQ(request.query.size(), 3u);
  ASSERT_TRUE(request.form);

  Message shorter = message("/b?only=1", {{"Host", "h"}}, "");
  shorter.method = "GET";
  shorter.remote_port = 7;
  build_request_into(shorter, request);
  const Request fresh = build_request(shorter);
  EXPECT_EQ(request.method, "GET");
  EXPECT_EQ(request.path, "/b");
  EXPECT_EQ(request.query, fresh.query);
  EXPECT_EQ(request.headers, fresh.headers);
  EXPECT_EQ(request.body, fresh.body);
  EXPECT_FALSE(request.form);
  EXPECT_EQ(request.request_from, "::ffff:127.0.0.1:7");
  EXPECT_EQ(request.ip, fresh.ip);
}

// The refilled request lives with its connection: a large body's buffer is let go when the next
// body is small, so a connection does not hold up to max_body_bytes between requests.
TEST(RequestBuilder, ALargeBodyBufferIsNotKeptForASmallNextBody) {
  Request request;
  build_request_into(message("/", {}, std::string(512 * 1024, 'x')), request);
  ASSERT_TRUE(request.body);
  ASSERT_EQ(request.body->size(), 512u * 1024);
  build_request_into(message("/", {}, "small"), request);
  EXPECT_EQ(request.body, "small");
  EXPECT_LE(request.body->capacity(), 64u * 1024);
}

}  // namespace
}  // namespace rift::http
