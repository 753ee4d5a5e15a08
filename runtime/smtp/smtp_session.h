// The server side of one SMTP dialogue, without sockets: bytes in, reply lines and finished
// messages out. It answers as smtp-server 3.13 does under Mountebank 2.9.1's options
// (authOptional, maxAllowedUnauthenticatedCommands 1000, disableReverseLookup): the same codes
// and texts, EHLO's extension lines, STARTTLS (the connection does the TLS; wants_tls()), dot-
// unstuffing, the limits on unknown and unauthenticated commands. Where Rift differs
// (docs/smtp.md): AUTH PLAIN and LOGIN accept any credentials once TLS is up (smtp-server has no
// users to check them against and refuses all), and every buffer is bounded (SmtpLimits), where
// smtp-server buffers a line or a message without end.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rift::smtp {

struct SmtpLimits {
  // A command line longer than this is answered "500 Error: line too long" once its end comes;
  // the bytes in between are dropped, not kept. Generous: smtp-server has no limit at all.
  size_t max_line_bytes = 1024 * 1024;
  // A message whose unstuffed data grows past this is read to its end but not kept, and answered
  // 552 (smtp-server's text for its `size` option); a MAIL FROM declaring SIZE= above it is
  // refused at once. As for HTTP bodies (http::Limits::max_body_bytes); note that a journal entry
  // lists an attachment's bytes one by one, as Mountebank does, so it is several times larger.
  size_t max_message_bytes = 10 * 1024 * 1024;
  // RCPT TO past this many recipients in one transaction: "452 Error: too many recipients".
  size_t max_recipients = 1000;
  // No byte from the client for this long: "421 Timeout - closing connection", then closed
  // (smtp-server's socketTimeout default).
  std::chrono::milliseconds idle_timeout = std::chrono::seconds(60);
  // Offer STARTTLS, as smtp-server does with its built-in certificate; off when the connection
  // cannot start TLS (the command is then unknown, as in smtp-server with it disabled).
  bool starttls = true;
};

// One accepted message: the envelope, and the data as the client sent it after DATA, dots
// unstuffed, up to and including the CRLF before the terminating ".".
struct SmtpMail {
  std::string mail_from;  // "" for MAIL FROM:<>; valid UTF-8, its domain punycode-decoded
  std::vector<std::string> rcpt_to;
  std::string data;
};

class SmtpSession {
 public:
  // `host_name` is the name the server greets with (smtp-server's os.hostname()); `client_address`
  // the peer's address as the journal shows it, which EHLO and HELO echo as "[address]".
  SmtpSession(SmtpLimits limits, std::string host_name, std::string client_address = {});

  // "220 <host> ESMTP\r\n": what the server sends first.
  std::string greeting() const;
  // Consumes every byte: appends the replies they call for to `replies` and each message the
  // client finished to `completed`. Bytes after the session finished are ignored.
  void feed(std::string_view bytes, std::string& replies, std::vector<SmtpMail>& completed);
  // QUIT was answered, or a 421 ended the session: close once the replies are written.
  bool finished() const { return finished_; }
  // The idle timeout fired: appends smtp-server's 421 and finishes the session.
  void time_out(std::string& replies);
  // STARTTLS was answered "220 Ready to start TLS": the connection starts TLS (as the server)
  // once the replies are written, and reads nothing more before it calls tls_started(). Bytes
  // that came after STARTTLS in the same read are not looked at (smtp-server ignores them too).
  bool wants_tls() const { return wants_tls_; }
  void tls_started();

 private:
  // What the next command line is: a command, or a line an AUTH exchange asked for.
  enum class Expect : uint8_t { command, plain_token, login_username, login_password };
  // Where DATA mode is within a line (dot-unstuffing and the terminator need a look ahead that
  // may straddle two reads).
  enum class DataState : uint8_t { line_start, middle, dot, dot_cr };

  void feed_command(std::string_view& bytes, std::string& replies);
  void feed_data(std::string_view& bytes, std::string& replies, std::vector<SmtpMail>& completed);
  void command(std::string_view raw, std::string& replies);
  void dispatch(std::string_view name, std::string_view line, std::string& replies);
  void unrecognized(std::string& replies);
  void mail(std::string_view line, std::string& replies);
  void rcpt(std::string_view line, std::string& replies);
  void data(std::string& replies);
  void auth(std::string_view line, std::string& replies);
  void auth_line(std::string_view line, std::string& replies);
  void plain_token(std::string_view token, bool can_abort, std::string& replies);
  void login_username(std::string_view username, bool can_abort, std::string& replies);
  void reset_transaction();
  void data_byte(char c);
  void end_data(std::string& replies, std::vector<SmtpMail>& completed);
  void close_with(std::string_view reply, std::string& replies);

  SmtpLimits limits_;
  std::string host_name_;
  std::string client_address_;
  // The command line read so far (without its line end), and whether it grew past the limit.
  std::string line_;
  bool line_too_long_ = false;
  bool greeted_ = false;  // HELO or EHLO accepted (smtp-server's hostNameAppearsAs)
  bool authenticated_ = false;
  bool wizard_ = false;  // sendmail's WIZ, which smtp-server plays along with
  bool secure_ = false;  // TLS is up
  bool wants_tls_ = false;
  bool has_mail_from_ = false;
  bool finished_ = false;
  bool in_data_ = false;
  Expect expect_ = Expect::command;
  DataState data_state_ = DataState::line_start;
  bool data_after_crlf_ = true;  // the current line began after CRLF (or the data's start)
  bool data_previous_cr_ = false;
  bool data_too_large_ = false;
  size_t data_bytes_ = 0;  // unstuffed bytes, kept or not
  int unrecognized_commands_ = 0;
  int unauthenticated_commands_ = 0;
  std::string login_user_;
  SmtpMail mail_;
};

}  // namespace rift::smtp
