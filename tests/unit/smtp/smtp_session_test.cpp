// SmtpSession without sockets: the dialogue's codes and texts as smtp-server gives them under
// Mountebank's options, DATA's dot-unstuffing however the bytes are cut, the limits, and hostile
// input (garbage, NUL bytes, endless lines and messages) that must neither crash nor grow.
#include "runtime/smtp/smtp_session.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace rift::smtp {
namespace {

struct Outcome {
  std::string replies;
  std::vector<SmtpMail> mails;
};

// Feeds `input` to a fresh session `step` bytes at a time.
Outcome run(std::string_view input, size_t step = SIZE_MAX, SmtpLimits limits = {}) {
  SmtpSession session(limits, "mock.host", "127.0.0.1");
  Outcome result;
  for (size_t at = 0; at < input.size(); at += step) {
    session.feed(input.substr(at, step), result.replies, result.mails);
  }
  return result;
}

// The reply codes in order, one per reply (a multi-line reply counts once, by its last line).
std::vector<std::string> codes(const std::string& replies) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < replies.size()) {
    const size_t end = replies.find("\r\n", start);
    const std::string line = replies.substr(start, end - start);
    if (line.size() < 4 || line[3] != '-') out.push_back(line.substr(0, 3));
    start = end + 2;
  }
  return out;
}

const std::string kMessage =
    "EHLO client.example\r\nMAIL FROM:<from@example.com>\r\nRCPT TO:<to@example.com>\r\nDATA\r\n"
    "Subject: hi\r\n\r\n..leading dot\r\n.x\r\nend\r\n.\r\nQUIT\r\n";

TEST(SmtpSession, GreetsWithTheHostName) {
  SmtpSession session({}, "mock.host", "127.0.0.1");
  EXPECT_EQ(session.greeting(), "220 mock.host ESMTP\r\n");
}

TEST(SmtpSession, AcceptsAMessage) {
  const Outcome result = run(kMessage);
  EXPECT_EQ(result.replies,
            "250-mock.host Nice to meet you, [127.0.0.1]\r\n250-PIPELINING\r\n250-8BITMIME\r\n"
            "250-SMTPUTF8\r\n250-AUTH LOGIN PLAIN\r\n250 STARTTLS\r\n"
            "250 Accepted\r\n250 Accepted\r\n354 End data with <CR><LF>.<CR><LF>\r\n"
            "250 OK: message queued\r\n221 Bye\r\n");
  ASSERT_EQ(result.mails.size(), 1u);
  EXPECT_EQ(result.mails[0].mail_from, "from@example.com");
  EXPECT_EQ(result.mails[0].rcpt_to, std::vector<std::string>{"to@example.com"});
  EXPECT_EQ(result.mails[0].data, "Subject: hi\r\n\r\n.leading dot\r\n.x\r\nend\r\n");
}

TEST(SmtpSession, AnyCutOfTheBytesGivesTheSameDialogue) {
  const Outcome whole = run(kMessage);
  for (size_t step : {1, 2, 3, 5, 7, 13}) {
    const Outcome cut = run(kMessage, step);
    EXPECT_EQ(cut.replies, whole.replies) << "step " << step;
    ASSERT_EQ(cut.mails.size(), 1u) << "step " << step;
    EXPECT_EQ(cut.mails[0].data, whole.mails[0].data) << "step " << step;
  }
}

TEST(SmtpSession, FinishesAfterQuitAndIgnoresTheRest) {
  SmtpSession session({}, "h", "127.0.0.1");
  std::string replies;
  std::vector<SmtpMail> mails;
  session.feed("QUIT\r\nNOOP\r\n", replies, mails);
  EXPECT_TRUE(session.finished());
  EXPECT_EQ(replies, "221 Bye\r\n");
}

TEST(SmtpSession, AnswersCommandsAsSmtpServerDoes) {
  const Outcome result = run(
      "MAIL FROM:<a@b.c>\r\nFOO\r\nHELO\r\nEHLO x y\r\nHELO Client\r\nRCPT TO:<x@y.z>\r\n"
      "MAIL FROM:<>\r\nMAIL FROM:<>\r\nRCPT TO:<>\r\nRCPT TO:bad\r\nRSET\r\nDATA\r\nNOOP\r\n"
      "VRFY x\r\nHELP\r\nXCLIENT ADDR=1.2.3.4\r\nWIZ\r\nWIZ pw\r\nSHELL\r\nKILL\r\nLHLO x\r\n\r\n");
  EXPECT_EQ(result.replies,
            "503 Error: send HELO/EHLO first\r\n"
            "500 Error: command not recognized\r\n"
            "501 Error: Syntax: HELO hostname\r\n"
            "501 Error: syntax: EHLO hostname\r\n"
            "250 mock.host Nice to meet you, [127.0.0.1]\r\n"
            "503 Error: need MAIL command\r\n"
            "250 Accepted\r\n"
            "503 Error: nested MAIL command\r\n"
            "501 Error: Bad recipient address syntax\r\n"
            "501 Error: Bad recipient address syntax\r\n"
            "250 Flushed\r\n"
            "503 Error: need RCPT command\r\n"
            "250 OK\r\n"
            "252 Try to send something. No promises though\r\n"
            "214 See https://tools.ietf.org/html/rfc5321 for details\r\n"
            "550 Error: Not allowed\r\n"
            "500 You are no wizard!\r\n"
            "200 Please pass, oh mighty wizard\r\n"
            "500 Error: Invoking shell is not allowed. This incident will be reported.\r\n"
            "500 Can not kill Mom\r\n"
            "500 Error: command not recognized\r\n"
            "500 Error: command not recognized\r\n");
}

TEST(SmtpSession, StartsTls) {
  SmtpSession session({}, "h", "127.0.0.1");
  std::string replies;
  std::vector<SmtpMail> mails;
  // What follows STARTTLS in the same read is not looked at.
  session.feed("EHLO c\r\nSTARTTLS\r\nNOOP\r\n", replies, mails);
  EXPECT_NE(replies.find("250 STARTTLS\r\n220 Ready to start TLS\r\n"), std::string::npos);
  EXPECT_EQ(replies.find("250 OK"), std::string::npos);
  EXPECT_TRUE(session.wants_tls());
  session.tls_started();
  EXPECT_FALSE(session.wants_tls());
  replies.clear();
  session.feed("EHLO c\r\nSTARTTLS\r\n", replies, mails);
  EXPECT_EQ(replies.find("STARTTLS"), std::string::npos);
  EXPECT_NE(replies.find("250 AUTH LOGIN PLAIN\r\n503 Error: TLS already active\r\n"),
            std::string::npos);
}

TEST(SmtpSession, WithoutTlsStartTlsIsUnknown) {
  SmtpLimits limits;
  limits.starttls = false;
  const Outcome result = run("EHLO c\r\nSTARTTLS\r\n", SIZE_MAX, limits);
  EXPECT_EQ(result.replies.find("STARTTLS"), std::string::npos);
  EXPECT_EQ(codes(result.replies), (std::vector<std::string>{"250", "500"}));
}

TEST(SmtpSession, ParsesEnvelopeAddressesAsSmtpServerDoes) {
  const Outcome result =
      run("EHLO c\r\nmail from: <A@B.C> SIZE=100 BODY=8BITMIME\r\nRCPT TO:<x@y.z>\r\nRCPT "
          "TO:<X@y.z>\r\n"
          "RCPT TO: <q@xn--bcher-kva.example>\r\nRCPT TO:<a@b@c>\r\nRCPT TO:<@c>\r\nDATA\r\n"
          "From: me@x.y\r\n\r\nbody\r\n.\r\n");
  ASSERT_EQ(result.mails.size(), 1u);
  EXPECT_EQ(result.mails[0].mail_from, "A@B.C");
  // A recipient given twice keeps its place with the later spelling; domains leave punycode.
  EXPECT_EQ(result.mails[0].rcpt_to, (std::vector<std::string>{"X@y.z",
                                                               "q@b\xC3\xBC"
                                                               "cher.example"}));
  EXPECT_EQ(codes(result.replies), (std::vector<std::string>{"250", "250", "250", "250", "250",
                                                             "501", "501", "354", "250"}));
}

// A session that has been through STARTTLS, then fed `input`: the replies after the upgrade.
std::string secure_replies(std::string_view input) {
  SmtpSession session({}, "mock.host", "127.0.0.1");
  std::string replies;
  std::vector<SmtpMail> mails;
  session.feed("EHLO c\r\nSTARTTLS\r\n", replies, mails);
  session.tls_started();
  replies.clear();
  session.feed(input, replies, mails);
  return replies;
}

TEST(SmtpSession, AuthNeedsTlsFirst) {
  const std::string replies = run("EHLO c\r\nAUTH PLAIN AGZvbwBiYXI=\r\nAUTH LOGIN\r\n").replies;
  EXPECT_NE(replies.find("250 STARTTLS\r\n538 Error: Must issue a STARTTLS command first\r\n"
                         "538 Error: Must issue a STARTTLS command first\r\n"),
            std::string::npos);
  EXPECT_EQ(codes(run("AUTH PLAIN AGZvbwBiYXI=\r\n").replies), std::vector<std::string>{"503"});
}

TEST(SmtpSession, AuthAcceptsAnyCredentialsOverTls) {
  // PLAIN with its token; then no second identity, and EHLO no longer offers AUTH.
  EXPECT_EQ(secure_replies("AUTH PLAIN AGZvbwBiYXI=\r\nAUTH LOGIN\r\nEHLO c\r\n"),
            "235 Authentication successful\r\n503 Error: No identity changes permitted\r\n"
            "250-mock.host Nice to meet you, [127.0.0.1]\r\n250-PIPELINING\r\n250-8BITMIME\r\n"
            "250 SMTPUTF8\r\n");
  EXPECT_EQ(secure_replies("AUTH PLAIN\r\nAGZvbwBiYXI=\r\n"),
            "334 \r\n235 Authentication successful\r\n");
  EXPECT_EQ(codes(secure_replies("AUTH LOGIN\r\ndXNlcg==\r\ncGFzcw==\r\n")),
            (std::vector<std::string>{"334", "334", "235"}));
  EXPECT_EQ(codes(secure_replies("AUTH LOGIN dXNlcg==\r\ncGFzcw==\r\n")),
            (std::vector<std::string>{"334", "235"}));
  EXPECT_EQ(codes(secure_replies("AUTH PLAIN\r\n*\r\nAUTH PLAIN bm9udWxs\r\nAUTH CRAM-MD5\r\n"
                                 "AUTH LOGIN\r\n\r\nAUTH PLAIN a b\r\n")),
            (std::vector<std::string>{"334", "501", "500", "504", "334", "500", "501"}));
}

TEST(SmtpSession, TooManyUnrecognizedCommandsEndTheSession) {
  std::string input;
  for (int i = 0; i < 12; ++i) input += "BOGUS\r\n";
  SmtpSession session({}, "h", "127.0.0.1");
  std::string replies;
  std::vector<SmtpMail> mails;
  session.feed(input, replies, mails);
  EXPECT_TRUE(session.finished());
  const auto answered = codes(replies);
  ASSERT_EQ(answered.size(), 10u);
  EXPECT_EQ(answered.back(), "421");
  EXPECT_NE(replies.find("421 Error: too many unrecognized commands\r\n"), std::string::npos);
}

TEST(SmtpSession, TooManyUnauthenticatedCommandsEndTheSession) {
  std::string input = "EHLO c\r\n";
  for (int i = 0; i < 1100; ++i) input += "NOOP\r\n";
  const Outcome result = run(input);
  const auto answered = codes(result.replies);
  ASSERT_EQ(answered.size(), 1000u);
  EXPECT_EQ(answered.back(), "421");
  // After AUTH there is no such limit.
  std::string authenticated = "AUTH PLAIN AGZvbwBiYXI=\r\n";
  for (int i = 0; i < 1100; ++i) authenticated += "NOOP\r\n";
  EXPECT_EQ(codes(secure_replies(authenticated)).size(), 1101u);
}

TEST(SmtpSession, RefusesHttpRequests) {
  SmtpSession session({}, "h", "127.0.0.1");
  std::string replies;
  std::vector<SmtpMail> mails;
  session.feed("GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n", replies, mails);
  EXPECT_EQ(replies, "421 HTTP requests not allowed\r\n");
  EXPECT_TRUE(session.finished());
}

TEST(SmtpSession, DotUnstuffingFollowsSmtpServer) {
  const std::string head = "EHLO c\r\nMAIL FROM:<a@b.c>\r\nRCPT TO:<x@y.z>\r\nDATA\r\n";
  auto data_of = [&](const std::string& body) {
    const Outcome result = run(head + body);
    return result.mails.empty() ? std::string("<none>") : result.mails[0].data;
  };
  EXPECT_EQ(data_of(".\r\n"), "");
  EXPECT_EQ(data_of("..\r\n.\r\n"), ".\r\n");
  EXPECT_EQ(data_of("a\r\n...b\r\n.\r\n"), "a\r\n..b\r\n");
  // A dot after a bare LF is unstuffed too; only CRLF "." CRLF ends the data.
  EXPECT_EQ(data_of("a\n..b\n.\nc\r\n.\r\n"), "a\n.b\n.\nc\r\n");
  EXPECT_EQ(data_of("a\r\n.\rb\r\n.\r\n"), "a\r\n.\rb\r\n");
  EXPECT_EQ(data_of("no end yet\r\n"), "<none>");
}

TEST(SmtpSession, PipelinedTransactionsEachComplete) {
  std::string input = "EHLO c\r\n";
  for (int i = 0; i < 3; ++i) {
    input += "MAIL FROM:<a@b.c>\r\nRCPT TO:<x@y.z>\r\nDATA\r\nmessage " + std::to_string(i) +
             "\r\n.\r\n";
  }
  const Outcome result = run(input);
  ASSERT_EQ(result.mails.size(), 3u);
  EXPECT_EQ(result.mails[2].data, "message 2\r\n");
}

TEST(SmtpSession, AnOversizedMessageIsRefusedAndTheSessionGoesOn) {
  SmtpLimits limits;
  limits.max_message_bytes = 100;
  std::string input = "EHLO c\r\nMAIL FROM:<a@b.c>\r\nRCPT TO:<x@y.z>\r\nDATA\r\n";
  for (int i = 0; i < 1000; ++i) input += "0123456789012345678901234567890123456789\r\n";
  input += ".\r\nMAIL FROM:<a@b.c>\r\nRCPT TO:<x@y.z>\r\nDATA\r\nsmall\r\n.\r\n";
  for (size_t step : {SIZE_MAX, size_t{17}}) {
    const Outcome result = run(input, step, limits);
    EXPECT_NE(result.replies.find("552 Error: message exceeds fixed maximum message size 100\r\n"),
              std::string::npos);
    ASSERT_EQ(result.mails.size(), 1u);
    EXPECT_EQ(result.mails[0].data, "small\r\n");
  }
  // A declared SIZE above the limit is refused at MAIL FROM.
  EXPECT_EQ(codes(run("EHLO c\r\nMAIL FROM:<a@b.c> SIZE=101\r\nMAIL FROM:<a@b.c> SIZE=100\r\n",
                      SIZE_MAX, limits)
                      .replies),
            (std::vector<std::string>{"250", "552", "250"}));
}

TEST(SmtpSession, AnOverlongLineIsDroppedNotKept) {
  SmtpLimits limits;
  limits.max_line_bytes = 64;
  const std::string input = "EHLO c\r\n" + std::string(100000, 'x') + "\r\nNOOP\r\n";
  for (size_t step : {SIZE_MAX, size_t{1000}}) {
    const Outcome result = run(input, step, limits);
    EXPECT_NE(result.replies.find("500 Error: line too long\r\n250 OK\r\n"), std::string::npos);
  }
}

TEST(SmtpSession, LimitsRecipients) {
  SmtpLimits limits;
  limits.max_recipients = 2;
  const Outcome result =
      run("EHLO c\r\nMAIL FROM:<a@b.c>\r\nRCPT TO:<1@x>\r\nRCPT TO:<2@x>\r\nRCPT TO:<3@x>\r\nRCPT "
          "TO:<2@X>\r\n",
          SIZE_MAX, limits);
  EXPECT_EQ(codes(result.replies),
            (std::vector<std::string>{"250", "250", "250", "250", "452", "250"}));
}

TEST(SmtpSession, TimesOutWith421) {
  SmtpSession session({}, "h", "127.0.0.1");
  std::string replies;
  session.time_out(replies);
  EXPECT_EQ(replies, "421 Timeout - closing connection\r\n");
  EXPECT_TRUE(session.finished());
}

TEST(SmtpSession, SurvivesGarbage) {
  std::mt19937 random(12345);
  SmtpLimits limits;
  limits.max_line_bytes = 256;
  limits.max_message_bytes = 4096;
  for (int round = 0; round < 200; ++round) {
    std::string input;
    const int length = static_cast<int>(random() % 5000);
    for (int i = 0; i < length; ++i) {
      // Mostly bytes that steer the state machine: line ends, dots, NULs, command words.
      switch (random() % 8) {
        case 0:
          input += "\r\n";
          break;
        case 1:
          input += ".";
          break;
        case 2:
          input.push_back('\0');
          break;
        case 3: {
          static const char* const kWords[] = {"EHLO x\r\n",        "MAIL FROM:<a@b>\r\n",
                                               "RCPT TO:<c@d>\r\n", "DATA\r\n",
                                               "AUTH PLAIN\r\n",    "\r\n.\r\n"};
          input += kWords[random() % 6];
          break;
        }
        default:
          input.push_back(static_cast<char>(random() % 256));
      }
    }
    SmtpSession session(limits, "h", "127.0.0.1");
    std::string replies;
    std::vector<SmtpMail> mails;
    for (size_t at = 0; at < input.size();) {
      const size_t step = 1 + random() % 64;
      session.feed(std::string_view(input).substr(at, step), replies, mails);
      at += step;
    }
    for (const SmtpMail& mail : mails) EXPECT_LE(mail.data.size(), limits.max_message_bytes);
  }
}

}  // namespace
}  // namespace rift::smtp
