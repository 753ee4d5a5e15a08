// mail_request against journal entries captured from Mountebank 2.9.1: each data/<name>.eml was
// sent with Python's smtplib (envelope a@b.c -> x@y.z, from 127.0.0.1) to an smtp imposter with
// recordRequests, and data/<name>.json is the request GET /imposters/:id showed, timestamp
// removed. Serialized and compared as text, so key order and number types count too.
#include "runtime/smtp/mail_request.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace rift::smtp {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<fs::path> captured_messages() {
  std::vector<fs::path> paths;
  for (const auto& entry :
       fs::directory_iterator(fs::path(RIFT_SOURCE_DIR) / "tests/unit/smtp/data")) {
    if (entry.path().extension() == ".eml") paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

TEST(MailRequest, MatchesMountebankJournalEntries) {
  const auto messages = captured_messages();
  ASSERT_GE(messages.size(), 4u);
  for (const fs::path& eml : messages) {
    fs::path expected_path = eml;
    expected_path.replace_extension(".json");
    const ir::Json expected = ir::Json::parse(read_file(expected_path));
    SmtpMail mail;
    mail.mail_from = "a@b.c";
    mail.rcpt_to = {"x@y.z"};
    mail.data = read_file(eml);
    EXPECT_EQ(mail_request(mail, "127.0.0.1").dump(1), expected.dump(1)) << eml.filename();
  }
}

TEST(MailRequest, RecordsAMessageWithoutFromWithoutOne) {
  // Mountebank's process dies on this message (smtpRequest.js reads email.from.value); Rift records
  // it with no `from`.
  SmtpMail mail{"", {"x@y.z"}, "Subject: hi\r\n\r\nbody\r\n"};
  const ir::Json entry = mail_request(mail, "::1");
  EXPECT_FALSE(entry.contains("from"));
  EXPECT_EQ(entry["subject"], "hi");
  EXPECT_EQ(entry["text"], "body");
  EXPECT_EQ(entry["requestFrom"], "::1");
  EXPECT_EQ(entry["envelopeFrom"], "");
}

TEST(MailRequest, SurvivesNonsense) {
  for (const std::string& data :
       {std::string(), std::string("\r\n"), std::string("no headers at all"),
        std::string("Content-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\n--x--"),
        std::string("From: =?utf-8?B?\xff\xfe?= <\x80@\xc3>\r\nSubject: "
                    "=?bogus?Q?=FF?=\r\n\r\n\xff\xfe\x00"),
        std::string(
            "Content-Type: text/html\r\n\r\n<<<<a href='&#xFFFFFFFF;'>&#0;&am</p></p><li><ul>")}) {
    SmtpMail mail{"a@b.c", {"x@y.z"}, data};
    const ir::Json entry = mail_request(mail, "127.0.0.1");
    EXPECT_NO_THROW((void)entry.dump()) << data;  // valid UTF-8 throughout
  }
}

}  // namespace
}  // namespace rift::smtp
