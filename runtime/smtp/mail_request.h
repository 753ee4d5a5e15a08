// An smtp imposter's journal entry for one message, as Mountebank 2.9.1 records it: mailparser's
// simpleParser output reduced by mountebank/src/models/smtp/smtpRequest.js and serialized by
// JSON.stringify. The imposter adds the timestamp.
//
//   {requestFrom, ip, envelopeFrom, envelopeTo, from, to, cc, bcc, subject, priority, references,
//    inReplyTo, text, html, attachments}
//
// Mountebank's own quirks are kept, since a test may rely on what it saw: `to`, `cc` and `bcc`
// hold the first address of each such header only; `priority` is always "normal" (simpleParser
// never sets it); a single reference is a string, not a list; `subject` is absent when empty.
// Where Mountebank fails, Rift records: a message without a From header (Mountebank's process
// crashes) has no `from`. docs/smtp.md lists what is approximated (html-to-text).
#pragma once

#include <string_view>

#include "compiler/ir.h"
#include "runtime/smtp/smtp_session.h"

namespace rift::smtp {

// `remote_address` is the client's address as Mountebank shows it: IPv4 in dotted form (no
// "::ffff:" prefix), IPv6 in its canonical form.
ir::Json mail_request(const SmtpMail& mail, std::string_view remote_address);

}  // namespace rift::smtp
