// Address headers (From, To, Cc, Bcc) as mailparser reads them: nodemailer's addressparser,
// ported rule for rule (its tokenizer, its guesses at an address in bare text, groups), then
// mailparser's decodeAddresses (encoded-word names, punycode domains). GMime's address parser
// answers differently in exactly the cases a journal shows: a name-only entry, a group, text
// around a bare address; so this one is the reference's.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rift::smtp {

// {address, name} for a mailbox; {name, group} for a group (no address).
struct MailAddress {
  std::string name;
  std::optional<std::string> address;
  std::optional<std::vector<MailAddress>> group;
};

// addressparser(text): every entry of a header value (UTF-8), names and addresses as written.
std::vector<MailAddress> parse_addresses(std::string_view text);

// addressparser then decodeAddresses: names trimmed and RFC 2047-decoded, a name made only of
// base64 words re-read as addresses, "@xn--" domains in Unicode.
std::vector<MailAddress> parse_address_header(std::string_view text);

}  // namespace rift::smtp
