#include "runtime/smtp/smtp_session.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <utility>

#include "compiler/base64.h"
#include "compiler/text_encoding.h"
#include "runtime/smtp/js_text.h"
#include "runtime/smtp/punycode.h"

namespace rift::smtp {
namespace {

// smtp-server closes after this many unknown commands, and after this many commands before AUTH
// (Mountebank raises the latter from 10).
constexpr int kMaxUnrecognizedCommands = 10;
constexpr int kMaxUnauthenticatedCommands = 1000;

void reply(std::string& replies, std::string_view line) {
  replies.append(line);
  replies.append("\r\n");
}

// smtp-server blocks web pages that make a browser talk to an SMTP port:
// /^(OPTIONS|GET|HEAD|POST|PUT|DELETE|TRACE|CONNECT) \/.* HTTP\/\d\.\d$/i
bool is_http_request_line(std::string_view line) {
  static constexpr std::string_view kMethods[] = {"OPTIONS", "GET",    "HEAD",  "POST",
                                                  "PUT",     "DELETE", "TRACE", "CONNECT"};
  const std::string upper = ascii_upper(line.substr(0, 9));
  for (std::string_view method : kMethods) {
    if (upper.size() < method.size() + 2 || upper.compare(0, method.size(), method) != 0 ||
        upper[method.size()] != ' ' || upper[method.size() + 1] != '/') {
      continue;
    }
    const std::string_view rest = line.substr(method.size() + 2);
    // '.' matches no line terminator: CR, LF, U+2028, U+2029.
    if (rest.find('\r') != std::string_view::npos ||
        rest.find("\xE2\x80\xA8") != std::string_view::npos ||
        rest.find("\xE2\x80\xA9") != std::string_view::npos) {
      return false;
    }
    if (rest.size() < 9) return false;
    const std::string tail = ascii_upper(rest.substr(rest.size() - 9));
    auto digit = [](char c) { return c >= '0' && c <= '9'; };
    return tail.compare(0, 6, " HTTP/") == 0 && digit(tail[6]) && tail[7] == '.' && digit(tail[8]);
  }
  return false;
}

// The envelope address of "MAIL FROM:<a@b> ARGS" or "RCPT TO:<a@b>", as smtp-server's
// _parseAddressCommand reads it: nullopt when the syntax is bad; `size` gets a SIZE= argument.
struct EnvelopeAddress {
  std::string address;
  std::optional<std::string> size;
};

std::optional<EnvelopeAddress> parse_address_command(std::string_view expected,
                                                     std::string_view line) {
  const size_t colon = line.find(':');
  const std::string_view name = line.substr(0, colon);
  if (ascii_upper(js_trim(name)) != expected) return std::nullopt;
  const std::string_view rest = colon == std::string_view::npos ? "" : line.substr(colon + 1);
  const std::vector<std::string_view> parts = js_split_whitespace(js_trim(rest));
  std::string_view address = parts.front();
  if (address.size() < 2 || address.front() != '<' || address.back() != '>' ||
      address.substr(1, address.size() - 2).find_first_of("<>") != std::string_view::npos) {
    return std::nullopt;
  }
  address = address.substr(1, address.size() - 2);
  EnvelopeAddress parsed;
  for (size_t i = 1; i < parts.size(); ++i) {
    const size_t equals = parts[i].find('=');
    if (ascii_upper(parts[i].substr(0, equals)) != "SIZE") continue;
    // Node's Number(true) for a bare SIZE is 1.
    parsed.size = equals == std::string_view::npos ? "1" : std::string(parts[i].substr(equals + 1));
  }
  if (address.empty()) return parsed;
  const size_t at = address.find('@');
  if (at == std::string_view::npos || at == 0 || at + 1 == address.size() ||
      address.find('@', at + 1) != std::string_view::npos) {
    return std::nullopt;  // smtp-server's "really bad e-mail address validation"
  }
  const std::string_view domain = address.substr(at + 1);
  const auto unicode = punycode_to_unicode(domain);
  parsed.address =
      std::string(address.substr(0, at + 1)) + (unicode ? *unicode : std::string(domain));
  return parsed;
}

// Node's Number(text) > limit, for the decimal sizes clients send (NaN compares false).
bool size_exceeds(std::string_view text, size_t limit) {
  text = js_trim(text);
  unsigned long long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc::result_out_of_range) return true;
  return error == std::errc() && end == text.data() + text.size() && value > limit;
}

bool same_address(std::string_view a, std::string_view b) {
  return ascii_lower(a) == ascii_lower(b);
}

std::string too_large_reply(size_t limit) {
  return "552 Error: message exceeds fixed maximum message size " + std::to_string(limit);
}

}  // namespace

SmtpSession::SmtpSession(SmtpLimits limits, std::string host_name, std::string client_address)
    : limits_(limits),
      host_name_(std::move(host_name)),
      client_address_(std::move(client_address)) {}

std::string SmtpSession::greeting() const {
  return "220 " + host_name_ + " ESMTP\r\n";
}

void SmtpSession::time_out(std::string& replies) {
  if (finished_) return;
  close_with("421 Timeout - closing connection", replies);
}

void SmtpSession::close_with(std::string_view line, std::string& replies) {
  reply(replies, line);
  finished_ = true;
}

void SmtpSession::tls_started() {
  wants_tls_ = false;
  secure_ = true;
}

void SmtpSession::feed(std::string_view bytes, std::string& replies,
                       std::vector<SmtpMail>& completed) {
  while (!bytes.empty() && !finished_ && !wants_tls_) {
    if (in_data_) {
      feed_data(bytes, replies, completed);
    } else {
      feed_command(bytes, replies);
    }
  }
}

// One line at most: the rest stays in `bytes`, since the line may switch the session to DATA.
void SmtpSession::feed_command(std::string_view& bytes, std::string& replies) {
  const size_t newline = bytes.find('\n');
  const std::string_view piece = bytes.substr(0, newline);
  if (!line_too_long_) {
    if (line_.size() + piece.size() > limits_.max_line_bytes) {
      line_too_long_ = true;
      std::string().swap(line_);
    } else {
      line_.append(piece);
    }
  }
  if (newline == std::string_view::npos) {
    bytes = {};
    return;
  }
  bytes.remove_prefix(newline + 1);
  if (line_too_long_) {
    line_too_long_ = false;
    ++unrecognized_commands_;
    if (unrecognized_commands_ >= kMaxUnrecognizedCommands) {
      close_with("421 Error: too many unrecognized commands", replies);
    } else {
      reply(replies, "500 Error: line too long");
    }
    return;
  }
  std::string_view line = line_;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  command(line, replies);
  line_.clear();
}

void SmtpSession::command(std::string_view raw, std::string& replies) {
  // smtp-server reads a command line as UTF-8 (Buffer#toString).
  const std::string text = to_valid_utf8(raw);
  if (is_http_request_line(text)) {
    close_with("421 HTTP requests not allowed", replies);
    return;
  }
  const std::string_view line = text;
  const std::string name = ascii_upper(line.substr(0, line.find(' ')));
  const Expect expect = std::exchange(expect_, Expect::command);
  if (expect == Expect::command) {
    static constexpr std::string_view kCommands[] = {
        "EHLO",     "HELO", "QUIT", "NOOP", "RSET", "HELP", "VRFY",  "XCLIENT",
        "XFORWARD", "AUTH", "MAIL", "RCPT", "DATA", "WIZ",  "SHELL", "KILL"};
    const bool known =
        std::find(std::begin(kCommands), std::end(kCommands), name) != std::end(kCommands) ||
        (name == "STARTTLS" && limits_.starttls);
    if (!known) {
      unrecognized(replies);
      return;
    }
  }
  if (!authenticated_ && name != "AUTH" &&
      ++unauthenticated_commands_ >= kMaxUnauthenticatedCommands) {
    close_with("421 Error: too many unauthenticated commands", replies);
    return;
  }
  if (!greeted_ && (name == "MAIL" || name == "RCPT" || name == "DATA" || name == "AUTH")) {
    reply(replies, "503 Error: send HELO/EHLO first");
    return;
  }
  if (expect != Expect::command) {
    expect_ = expect;
    auth_line(line, replies);
    return;
  }
  dispatch(name, line, replies);
}

void SmtpSession::unrecognized(std::string& replies) {
  if (++unrecognized_commands_ >= kMaxUnrecognizedCommands) {
    close_with("421 Error: too many unrecognized commands", replies);
    return;
  }
  reply(replies, "500 Error: command not recognized");
}

void SmtpSession::dispatch(std::string_view name, std::string_view line, std::string& replies) {
  if (name == "EHLO" || name == "HELO") {
    const std::string greeting_line = host_name_ + " Nice to meet you, [" + client_address_ + "]";
    if (js_split_whitespace(js_trim(line)).size() != 2) {
      reply(replies, name == "EHLO" ? "501 Error: syntax: EHLO hostname"
                                    : "501 Error: Syntax: HELO hostname");
      return;
    }
    greeted_ = true;
    reset_transaction();  // HELO and EHLO are an RSET as well
    if (name == "HELO") {
      reply(replies, "250 " + greeting_line);
      return;
    }
    reply(replies, "250-" + greeting_line);
    std::vector<std::string_view> features = {"PIPELINING", "8BITMIME", "SMTPUTF8"};
    if (!authenticated_) features.push_back("AUTH LOGIN PLAIN");
    if (limits_.starttls && !secure_) features.push_back("STARTTLS");
    for (size_t i = 0; i < features.size(); ++i) {
      reply(replies, std::string(i + 1 < features.size() ? "250-" : "250 ").append(features[i]));
    }
  } else if (name == "QUIT") {
    close_with("221 Bye", replies);
  } else if (name == "NOOP") {
    reply(replies, "250 OK");
  } else if (name == "RSET") {
    reset_transaction();
    reply(replies, "250 Flushed");
  } else if (name == "HELP") {
    reply(replies, "214 See https://tools.ietf.org/html/rfc5321 for details");
  } else if (name == "VRFY") {
    reply(replies, "252 Try to send something. No promises though");
  } else if (name == "STARTTLS") {
    if (secure_) {
      reply(replies, "503 Error: TLS already active");
      return;
    }
    reply(replies, "220 Ready to start TLS");
    wants_tls_ = true;
  } else if (name == "XCLIENT" || name == "XFORWARD") {
    reply(replies, "550 Error: Not allowed");
  } else if (name == "AUTH") {
    auth(line, replies);
  } else if (name == "MAIL") {
    mail(line, replies);
  } else if (name == "RCPT") {
    rcpt(line, replies);
  } else if (name == "DATA") {
    data(replies);
  } else if (name == "WIZ") {
    const auto args = js_split_whitespace(js_trim(line));
    if (args.size() < 2 || args[1].empty()) {
      reply(replies, "500 You are no wizard!");
      return;
    }
    wizard_ = true;
    reply(replies, "200 Please pass, oh mighty wizard");
  } else if (name == "SHELL") {
    reply(replies, wizard_
                       ? "500 Error: Invoking shell is not allowed. This incident will be reported."
                       : "500 Mere mortals must not mutter that mantra");
  } else if (name == "KILL") {
    reply(replies, "500 Can not kill Mom");
  }
}

void SmtpSession::reset_transaction() {
  has_mail_from_ = false;
  mail_ = SmtpMail();
}

void SmtpSession::mail(std::string_view line, std::string& replies) {
  auto parsed = parse_address_command("MAIL FROM", line);
  if (!parsed) {
    reply(replies, "501 Error: Bad sender address syntax");
    return;
  }
  if (has_mail_from_) {
    reply(replies, "503 Error: nested MAIL command");
    return;
  }
  if (parsed->size && size_exceeds(*parsed->size, limits_.max_message_bytes)) {
    reply(replies, too_large_reply(limits_.max_message_bytes));
    return;
  }
  has_mail_from_ = true;
  mail_.mail_from = std::move(parsed->address);
  reply(replies, "250 Accepted");
}

void SmtpSession::rcpt(std::string_view line, std::string& replies) {
  auto parsed = parse_address_command("RCPT TO", line);
  if (!parsed || parsed->address.empty()) {
    reply(replies, "501 Error: Bad recipient address syntax");
    return;
  }
  if (!has_mail_from_) {
    reply(replies, "503 Error: need MAIL command");
    return;
  }
  // A recipient given twice (in any case) keeps its place and takes the later spelling.
  auto& recipients = mail_.rcpt_to;
  const auto same =
      std::find_if(recipients.begin(), recipients.end(),
                   [&](const std::string& known) { return same_address(known, parsed->address); });
  if (same != recipients.end()) {
    *same = std::move(parsed->address);
  } else if (recipients.size() >= limits_.max_recipients) {
    reply(replies, "452 Error: too many recipients");
    return;
  } else {
    recipients.push_back(std::move(parsed->address));
  }
  reply(replies, "250 Accepted");
}

void SmtpSession::data(std::string& replies) {
  if (mail_.rcpt_to.empty()) {
    reply(replies, "503 Error: need RCPT command");
    return;
  }
  in_data_ = true;
  data_state_ = DataState::line_start;
  data_after_crlf_ = true;
  data_previous_cr_ = false;
  data_too_large_ = false;
  data_bytes_ = 0;
  reply(replies, "354 End data with <CR><LF>.<CR><LF>");
}

void SmtpSession::auth(std::string_view line, std::string& replies) {
  auto args = js_split_whitespace(js_trim(line));
  args.erase(args.begin());
  const std::string method = args.empty() ? "" : ascii_upper(args.front());
  if (!args.empty()) args.erase(args.begin());
  if (limits_.starttls && !secure_) {
    reply(replies, "538 Error: Must issue a STARTTLS command first");
  } else if (authenticated_) {
    reply(replies, "503 Error: No identity changes permitted");
  } else if (method == "PLAIN") {
    if (args.size() > 1) {
      reply(replies, "501 Error: syntax: AUTH PLAIN token");
    } else if (args.empty()) {
      expect_ = Expect::plain_token;
      reply(replies, "334 ");
    } else {
      plain_token(args.front(), false, replies);
    }
  } else if (method == "LOGIN") {
    if (args.size() > 1) {
      reply(replies, "501 Error: syntax: AUTH LOGIN");
    } else if (args.empty()) {
      expect_ = Expect::login_username;
      reply(replies, "334 VXNlcm5hbWU6");  // "Username:"
    } else {
      login_username(args.front(), false, replies);
    }
  } else {
    reply(replies, "504 Error: Unrecognized authentication type");
  }
}

void SmtpSession::auth_line(std::string_view line, std::string& replies) {
  const Expect expect = std::exchange(expect_, Expect::command);
  switch (expect) {
    case Expect::plain_token:
      plain_token(line, true, replies);
      return;
    case Expect::login_username:
      login_username(line, true, replies);
      return;
    case Expect::login_password: {
      const std::string_view password = js_trim(line);
      if (password == "*") {
        reply(replies, "501 Authentication aborted");
        return;
      }
      // Any password will do (docs/smtp.md): Mountebank has no users to check it against.
      authenticated_ = true;
      reply(replies, "235 Authentication successful");
      return;
    }
    case Expect::command:
      return;
  }
}

void SmtpSession::plain_token(std::string_view token, bool can_abort, std::string& replies) {
  token = js_trim(token);
  if (can_abort && token == "*") {
    reply(replies, "501 Authentication aborted");
    return;
  }
  // authzid NUL authcid NUL password: exactly three fields, whatever they hold.
  const std::string fields = to_valid_utf8(base64_decode_lenient(token));
  if (std::count(fields.begin(), fields.end(), '\0') != 2) {
    reply(replies, "500 Error: invalid userdata");
    return;
  }
  authenticated_ = true;
  reply(replies, "235 Authentication successful");
}

void SmtpSession::login_username(std::string_view username, bool can_abort, std::string& replies) {
  username = js_trim(username);
  if (can_abort && username == "*") {
    reply(replies, "501 Authentication aborted");
    return;
  }
  if (to_valid_utf8(base64_decode_lenient(username)).empty()) {
    reply(replies, "500 Error: missing username");
    return;
  }
  expect_ = Expect::login_password;
  reply(replies, "334 UGFzc3dvcmQ6");  // "Password:"
}

void SmtpSession::feed_data(std::string_view& bytes, std::string& replies,
                            std::vector<SmtpMail>& completed) {
  auto keep = [this](std::string_view piece) {
    data_bytes_ += piece.size();
    if (data_too_large_) return;
    if (data_bytes_ > limits_.max_message_bytes) {
      data_too_large_ = true;
      std::string().swap(mail_.data);  // counted from here on, never kept
      return;
    }
    mail_.data.append(piece);
  };
  while (!bytes.empty()) {
    const char c = bytes.front();
    switch (data_state_) {
      case DataState::middle: {
        const size_t newline = bytes.find('\n');
        const size_t take = newline == std::string_view::npos ? bytes.size() : newline + 1;
        if (newline != std::string_view::npos) {
          data_after_crlf_ = newline > 0 ? bytes[newline - 1] == '\r' : data_previous_cr_;
          data_state_ = DataState::line_start;
        }
        data_previous_cr_ = bytes[take - 1] == '\r';
        keep(bytes.substr(0, take));
        bytes.remove_prefix(take);
        break;
      }
      case DataState::line_start:
        if (c == '.') {
          data_state_ = DataState::dot;
          bytes.remove_prefix(1);
        } else {
          data_state_ = DataState::middle;
        }
        break;
      case DataState::dot:
        if (c == '\r') {
          data_state_ = DataState::dot_cr;
          bytes.remove_prefix(1);
          break;
        }
        // ".." is one escaped dot; a dot before anything else is data.
        keep(".");
        data_previous_cr_ = false;
        data_state_ = DataState::middle;
        if (c == '.') bytes.remove_prefix(1);
        break;
      case DataState::dot_cr:
        if (c == '\n' && data_after_crlf_) {
          bytes.remove_prefix(1);
          end_data(replies, completed);
          return;
        }
        keep(".\r");
        data_previous_cr_ = true;
        data_state_ = DataState::middle;
        break;
    }
  }
}

void SmtpSession::end_data(std::string& replies, std::vector<SmtpMail>& completed) {
  in_data_ = false;
  if (data_too_large_) {
    reply(replies, too_large_reply(limits_.max_message_bytes));
  } else {
    completed.push_back(std::move(mail_));
    reply(replies, "250 OK: message queued");
  }
  unrecognized_commands_ = 0;
  reset_transaction();
}

}  // namespace rift::smtp
