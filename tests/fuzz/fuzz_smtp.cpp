// The bytes one client sends an smtp imposter, through SmtpSession, and every message it completes
// through mail_request, as the imposter records it.
//
// The input arrives in reads whose sizes the input decides (so DATA's dot-unstuffing and the line
// framing are cut at every place), under small limits so that the overlong-line and oversized-
// message paths are reached; a STARTTLS is taken as a handshake that succeeded. Each journal entry
// is serialized, which fails loudly on text that is not valid UTF-8. The whole input is also read
// as one message, so that MIME parsing (GMime, the header decoders, html-to-text) sees arbitrary
// bytes without an SMTP dialogue in front.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/smtp/mail_request.h"
#include "runtime/smtp/smtp_session.h"
#include "tests/fuzz/fuzz_input.h"

namespace {

rift::smtp::SmtpLimits fuzz_limits() {
  rift::smtp::SmtpLimits limits;
  limits.max_line_bytes = 512;
  limits.max_message_bytes = 8192;
  limits.max_recipients = 8;
  return limits;
}

// Read sizes drawn from a hash of the input: one input always splits the same way.
class ReadSizes {
 public:
  explicit ReadSizes(std::string_view bytes) {
    for (unsigned char c : bytes) state_ = (state_ ^ c) * 0x100000001b3ULL;
  }
  size_t next(size_t left) {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    constexpr size_t kLargest[] = {1, 3, 16, 200, SIZE_MAX};
    const size_t largest = kLargest[state_ % 5];
    const size_t most = left < largest ? left : largest;
    return 1 + static_cast<size_t>((state_ >> 8) % most);
  }

 private:
  uint64_t state_ = 0xcbf29ce484222325ULL;
};

void record(const rift::smtp::SmtpMail& mail) {
  const std::string journal = rift::smtp::mail_request(mail, "127.0.0.1").dump();
  if (journal.empty()) rift::fuzz::contract_broken("empty journal entry");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const rift::smtp::SmtpLimits limits = fuzz_limits();
  const std::string_view wire = rift::fuzz::as_text(data, size);

  rift::smtp::SmtpSession session(limits, "fuzz.host", "127.0.0.1");
  ReadSizes sizes(wire);
  std::string replies;
  std::vector<rift::smtp::SmtpMail> completed;
  for (size_t at = 0; at < wire.size() && !session.finished();) {
    const size_t step = sizes.next(wire.size() - at);
    session.feed(wire.substr(at, step), replies, completed);
    at += step;
    // As if the TLS handshake succeeded: the rest of the input is what comes over TLS.
    if (session.wants_tls()) session.tls_started();
    for (const auto& mail : completed) {
      if (mail.data.size() > limits.max_message_bytes)
        rift::fuzz::contract_broken("message over the limit");
      record(mail);
    }
    completed.clear();
    // Replies are bounded by what one read can ask for; the connection writes them before reading
    // on.
    if (replies.size() > 64 * (step + 1) + 512)
      rift::fuzz::contract_broken("replies out of proportion");
    replies.clear();
  }

  record(rift::smtp::SmtpMail{"a@b.c", {"x@y.z"}, std::string(wire)});
  return 0;
}
