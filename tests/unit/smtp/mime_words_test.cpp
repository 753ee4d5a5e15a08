// The libmime, addressparser and punycode ports on their own, for the cases a journal entry hides
// (only the first address of a header is recorded, for one).
#include "runtime/smtp/mime_words.h"

#include <gtest/gtest.h>

#include "runtime/smtp/address_parser.h"
#include "runtime/smtp/html_text.h"
#include "runtime/smtp/punycode.h"

namespace rift::smtp {
namespace {

TEST(MimeWords, DecodesEncodedWords) {
  EXPECT_EQ(decode_words("=?UTF-8?B?SGVsbG8g?= =?UTF-8?B?V29ybGQ=?="), "Hello World");
  EXPECT_EQ(decode_words("=?utf-8?Q?a_b=C3=A9?= x =?iso-8859-1?B?6Q==?="),
            "a b\xC3\xA9 x \xC3\xA9");
  // A multi-byte character split across two words of one charset is joined before decoding.
  EXPECT_EQ(decode_words("=?utf-8?Q?=C3?= =?utf-8?Q?=A9?="), "\xC3\xA9");
  EXPECT_EQ(decode_words("plain text"), "plain text");
  EXPECT_EQ(decode_words("=?x-unknown?Q?abc?="), "abc");
}

TEST(MimeWords, ParsesHeaderValues) {
  const HeaderValue type =
      parse_header_value("text/plain; charset=\"UTF-8\"; format=flowed; emptykey");
  EXPECT_EQ(type.value, "text/plain");
  EXPECT_EQ(*type.param("charset"), "UTF-8");
  EXPECT_EQ(*type.param("format"), "flowed");
  EXPECT_EQ(*type.param("emptykey"), "");
  const HeaderValue disposition =
      parse_header_value("attachment; filename*0*=utf-8''na%C3%AFve%20; filename*1*=file.txt");
  EXPECT_EQ(*disposition.param("filename"), "na\xC3\xAFve file.txt");
}

TEST(MimeWords, DecodesQuotedPrintableAsLibqp) {
  EXPECT_EQ(quoted_printable_decode("a=3Db =\r\nsoft  \r\nend="), "a=b soft\r\nend");
  EXPECT_EQ(quoted_printable_decode("=ZZ \xC3\xA9"), "=ZZ C)");  // 8-bit bytes lose their high bit
}

TEST(MimeWords, DecodesFlowedText) {
  EXPECT_EQ(decode_flowed("one \r\ntwo\r\n-- \r\nsig", false), "one two\n-- \nsig");
  EXPECT_EQ(decode_flowed("one \r\ntwo", true), "onetwo");
}

TEST(MimeWords, NormalizesCharsets) {
  EXPECT_EQ(normalize_charset("latin1"), "windows-1252");
  EXPECT_EQ(normalize_charset("UTF8"), "UTF-8");
  EXPECT_EQ(normalize_charset("win-1251"), "windows-1251");
  EXPECT_EQ(normalize_charset("x-made-up"), "X-MADE-UP");
}

TEST(Punycode, DecodesDomainsLikePunycodeJs) {
  EXPECT_EQ(punycode_to_unicode("xn--bcher-kva.example"),
            "b\xC3\xBC"
            "cher.example");
  EXPECT_EQ(punycode_to_unicode("XN--bcher-kva.example"), "XN--bcher-kva.example");
  EXPECT_EQ(punycode_to_unicode("plain.example"), "plain.example");
  EXPECT_EQ(punycode_to_unicode("xn--99999999999.ru"), std::nullopt);
}

TEST(AddressParser, ReadsEveryEntry) {
  const auto list = parse_address_header(
      "\"Doe, John\" <john@x.com>, jane@x.com (Jane), team: a@x, b@x;, Name Only");
  ASSERT_EQ(list.size(), 4u);
  EXPECT_EQ(list[0].name, "Doe, John");
  EXPECT_EQ(*list[0].address, "john@x.com");
  EXPECT_EQ(list[1].name, "Jane");
  ASSERT_TRUE(list[2].group.has_value());
  EXPECT_EQ(list[2].group->size(), 2u);
  EXPECT_EQ(*list[3].address, "");
  EXPECT_EQ(list[3].name, "Name Only");
}

TEST(HtmlText, RendersLikeHtmlToText) {
  EXPECT_EQ(html_to_text("<p>Hello <b>world</b></p><p>Second para</p>"),
            "Hello world\n\nSecond para");
  EXPECT_EQ(html_to_text("<h1>Title here</h1><a href=\"https://x/a\">a link</a>"),
            "TITLE HERE\n\na link [https://x/a]");
  EXPECT_EQ(html_to_text("<div>a</div><div>b</div>  <span>c   d</span>"), "a\nb\nc d");
  EXPECT_EQ(text_to_html("a & b\r\n\r\n\r\nc\nd"), "<p>a &amp; b</p><p>c<br/>d</p>");
}

}  // namespace
}  // namespace rift::smtp
